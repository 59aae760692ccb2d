package hostkeys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/ssh"
)

func TestEnsureCreatesOnceAndReuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", FileName)
	first, err := Ensure(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != 0o600 {
		t.Errorf("key mode %04o, want 0600", got)
	}
	if got := first.Signer.PublicKey().Type(); got != "ssh-ed25519" {
		t.Errorf("key type %s, want ssh-ed25519", got)
	}
	again, err := Ensure(path)
	if err != nil {
		t.Fatal(err)
	}
	if first.Fingerprint() != again.Fingerprint() {
		t.Errorf("second start made a new key: %s then %s", first.Fingerprint(), again.Fingerprint())
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pub), "ssh-ed25519 ") {
		t.Errorf("public key file %q", pub)
	}
}

// The key must load where Wish and charmbracelet/ssh load host keys.
func TestKeyLoadsAsHostKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if _, err := Ensure(path); err != nil {
		t.Fatal(err)
	}
	srv := &ssh.Server{}
	if err := srv.SetOption(ssh.HostKeyFile(path)); err != nil {
		t.Fatal(err)
	}
	if len(srv.HostSigners) != 1 {
		t.Fatalf("%d host signers", len(srv.HostSigners))
	}
}

func TestRefusesKeysOthersCanRead(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660, 0o602} {
		path := filepath.Join(t.TempDir(), FileName)
		if _, err := Ensure(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		_, err := Ensure(path)
		if err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: err = %v, want a refusal telling to chmod 600", mode, err)
		}
	}
}

func TestLoadSharedKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared_key")
	if _, err := Load(path); err == nil {
		t.Fatal("Load of a missing shared key succeeded; it must not create one")
	}
	made, err := Ensure(path)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if made.Fingerprint() != loaded.Fingerprint() {
		t.Error("shared key loaded differently")
	}
}

func TestRefusesGarbage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(path); err == nil {
		t.Error("a garbage key file was accepted")
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("loading a directory: %v", err)
	}
}
