package lobby

import (
	"crypto/rand"
	"encoding/binary"
)

// randomSeed picks a game seed for rooms created without one.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
