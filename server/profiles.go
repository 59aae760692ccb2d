package server

import (
	"net/http"
	"net/http/pprof"
)

// WithProfiles serves Go's runtime profiles (net/http/pprof: heap,
// goroutines, CPU, allocations) at /debug/pprof/ beside what h serves.
// They are for measuring what a session costs (docs/performance.md); they
// show the server's internals and a CPU profile costs CPU while it runs,
// so serve them only where the metrics are private.
func WithProfiles(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
