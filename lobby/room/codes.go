package room

import (
	"crypto/rand"
)

// CodeAlphabet leaves out look-alikes (0/O, 1/I/L) so a code read aloud or
// copied from a screen is typed right.
const CodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLength is the length of room codes: 31^6 is about 887 million, short
// enough to read aloud. A public room is listed anyway; a private one
// needs its secret too.
const CodeLength = 6

// SecretLength is the length of a private room's secret: 31^13 is about
// 2^64, so guessing it is hopeless even at a million guesses a second.
const SecretLength = 13

// NewCode returns a random room code.
func NewCode() string { return RandomLetters(CodeLength) }

// NewSecret returns a random secret for a private room's invite.
func NewSecret() string { return RandomLetters(SecretLength) }

// RandomLetters returns n letters of CodeAlphabet, each equally likely.
func RandomLetters(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+1) // about one byte in 32 is drawn again
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic(err) // crypto/rand never fails on supported platforms
		}
		for _, b := range buf {
			if c, ok := letter(b); ok && len(out) < n {
				out = append(out, c)
			}
		}
	}
	return string(out)
}

// letter maps a random byte to a letter, or refuses it. 256 is 8×31 + 8:
// taking every byte modulo 31 would make the first 8 letters likelier than
// the rest (9 bytes each instead of 8), so the last 8 bytes are refused and
// drawn again.
func letter(b byte) (byte, bool) {
	const n = len(CodeAlphabet)
	if int(b) >= 256/n*n {
		return 0, false
	}
	return CodeAlphabet[int(b)%n], true
}

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(code string) string {
	out := make([]byte, 0, len(code))
	for _, r := range code {
		switch {
		case r >= 'a' && r <= 'z':
			out = append(out, byte(r-'a'+'A'))
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			out = append(out, byte(r))
		}
	}
	return string(out)
}
