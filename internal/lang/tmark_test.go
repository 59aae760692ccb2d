package lang

import "testing"

// BenchmarkT words a message without arguments, as frames ask for their
// titles and key names, and one with two, as the log's lines are.
func BenchmarkT(b *testing.B) {
	p := For(Polish)
	id := "session.log.pane"
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.T(id)
		}
	})
	who, what := "♥ ben", "bierze 2 karty"
	b.Run("args", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.T("log.line", "Who", who, "What", what)
		}
	})
}

// BenchmarkN words a plural with its count alone, as boards word their
// counts ("3 buildings") at every update.
func BenchmarkN(b *testing.B) {
	p := For(Polish)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.N("lang.players", i%8)
	}
}
