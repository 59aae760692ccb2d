package server

import "expvar"

// metrics are the server's counters, published with the process's other
// expvar variables (serve them with the binary's --metrics address).
var metrics = expvar.NewMap("smokestack")
