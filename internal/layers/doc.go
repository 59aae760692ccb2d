// Package layers holds the house's plan as data, and the test that holds
// the code to it: which package may import which (a table of allowed
// edges, from cmd at the top to the engine at the bottom), and which
// standard packages a game's rules and bots may use (none that reach a
// clock, a file, the network or a global random source).
//
// Every package of the module must match a row of the table, so a new
// package is placed on purpose, not by accident. The games come from the
// registry, not from path depth.
package layers
