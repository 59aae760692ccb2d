// Package hostkeys creates and guards the server's SSH host key: an ed25519
// key in OpenSSH format, made once on first start and reused ever after, so
// players' known_hosts entries stay valid across restarts.
package hostkeys

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// FileName is the host key's name inside the data directory; the public
// half sits next to it with a ".pub" suffix.
const FileName = "ssh_host_ed25519_key"

// Key is a loaded host key.
type Key struct {
	Path   string
	Signer gossh.Signer
}

// Fingerprint is the key's SHA256 fingerprint, as ssh clients show it.
func (k Key) Fingerprint() string { return gossh.FingerprintSHA256(k.Signer.PublicKey()) }

// Ensure loads the host key at path, creating it (and its directory) first
// if it does not exist yet. It is what a single instance uses with its data
// directory.
func Ensure(path string) (Key, error) {
	k, err := Load(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := create(path); err != nil {
		return Key{}, err
	}
	return Load(path)
}

// Load reads an existing host key. Several instances behind one address
// load the same key this way, so clients see one server. It refuses a key
// file that anyone but its owner can read or write: a leaked host key lets
// others impersonate the server.
func Load(path string) (Key, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Key{}, fmt.Errorf("host key: %w", err)
	}
	if info.IsDir() {
		return Key{}, fmt.Errorf("host key %s is a directory, not a key file", path)
	}
	if mode := info.Mode().Perm(); mode&0o077 != 0 {
		return Key{}, fmt.Errorf("host key %s has mode %04o, so other users can read it: run `chmod 600 %s` (and consider making a new key if others may have copied it)", path, mode, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("host key: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return Key{}, fmt.Errorf("host key %s: %w", path, err)
	}
	return Key{Path: path, Signer: signer}, nil
}

// create writes a new ed25519 key to path with mode 0600, and its public
// half to path.pub. The private key is written under a temporary name and
// linked into place, so two instances starting at once cannot both create
// a key, and a crash never leaves half a key behind.
func create(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("host key directory: %w", err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("generate host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "smokestack host key")
	if err != nil {
		return fmt.Errorf("encode host key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hostkey-*")
	if err != nil {
		return fmt.Errorf("write host key: %w", err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp already uses 0600; Chmod makes it explicit whatever the umask.
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("write host key: %w", err)
	}
	if _, err := tmp.Write(pem.EncodeToMemory(block)); err != nil {
		tmp.Close()
		return fmt.Errorf("write host key: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write host key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write host key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return nil // another instance made the key first: use theirs
	} else if err != nil {
		return fmt.Errorf("write host key: %w", err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		return fmt.Errorf("host public key: %w", err)
	}
	// The public half lets operators publish the fingerprint.
	if err := os.WriteFile(path+".pub", gossh.MarshalAuthorizedKey(sshPub), 0o644); err != nil {
		return fmt.Errorf("write host public key: %w", err)
	}
	return nil
}
