// Package layers holds no code, only the test that keeps the shared layers
// free of any game: lobby, server and the generic screens in session must
// reach a game only through the engine's contract and the registration in
// cmd/smokestack, never by importing a game's package.
package layers
