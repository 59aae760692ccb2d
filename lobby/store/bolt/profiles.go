package bolt

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/smokestack/smokestack/lobby/store"
)

var (
	profilesBucket     = []byte("profiles")      // ID -> Profile JSON
	profileKeysBucket  = []byte("profile-keys")  // key fingerprint -> ID
	profileNamesBucket = []byte("profile-names") // nameKey -> ID
	linkCodesBucket    = []byte("link-codes")    // code -> link JSON
)

// link is a link code's profile and expiry as the store keeps them.
type link struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires"`
}

// boltProfiles is the profiles in one bbolt transaction.
type boltProfiles struct {
	profiles, keys, names *bolt.Bucket
	err                   error // the first failure of a put
}

func boltProfilesOf(tx *bolt.Tx) (*boltProfiles, error) {
	if !tx.Writable() {
		return &boltProfiles{profiles: tx.Bucket(profilesBucket), keys: tx.Bucket(profileKeysBucket), names: tx.Bucket(profileNamesBucket)}, nil
	}
	var b [3]*bolt.Bucket
	for i, name := range [][]byte{profilesBucket, profileKeysBucket, profileNamesBucket} {
		var err error
		if b[i], err = tx.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
	}
	return &boltProfiles{profiles: b[0], keys: b[1], names: b[2]}, nil
}

func bucketGet(b *bolt.Bucket, k string) (string, bool) {
	if b == nil {
		return "", false
	}
	v := b.Get([]byte(k))
	return string(v), v != nil
}

func (b *boltProfiles) keep(err error) {
	if b.err == nil {
		b.err = err
	}
}

// decodeProfile reads the stored profile id.
func decodeProfile(id string, data []byte) (store.Profile, error) {
	var p store.Profile
	if err := json.Unmarshal(data, &p); err != nil {
		return store.Profile{}, fmt.Errorf("profile %s: %w", id, err)
	}
	return p, nil
}

func (b *boltProfiles) Get(id string) (store.Profile, bool) {
	v, ok := bucketGet(b.profiles, id)
	if !ok {
		return store.Profile{}, false
	}
	p, err := store.DecodeProfile(id, []byte(v))
	b.keep(err)
	return p, err == nil
}
func (b *boltProfiles) Put(p store.Profile)               { b.keep(putJSON(b.profiles, []byte(p.ID), p)) }
func (b *boltProfiles) Drop(id string)                    { b.keep(b.profiles.Delete([]byte(id))) }
func (b *boltProfiles) KeyOf(key string) (string, bool)   { return bucketGet(b.keys, key) }
func (b *boltProfiles) SetKey(key, id string)             { b.keep(b.keys.Put([]byte(key), []byte(id))) }
func (b *boltProfiles) DropKey(key string)                { b.keep(b.keys.Delete([]byte(key))) }
func (b *boltProfiles) NameOf(name string) (string, bool) { return bucketGet(b.names, name) }
func (b *boltProfiles) SetName(name, id string)           { b.keep(b.names.Put([]byte(name), []byte(id))) }
func (b *boltProfiles) DropName(name string)              { b.keep(b.names.Delete([]byte(name))) }

// read looks a profile up in a read-only transaction.
func (s *Store) readProfile(find func(b *boltProfiles) (string, bool)) (p store.Profile, err error) {
	err = s.db.View(func(tx *bolt.Tx) error {
		b, _ := boltProfilesOf(tx)
		id, ok := find(b)
		if ok {
			p, ok = b.Get(id)
		}
		if b.err != nil {
			return b.err
		}
		if !ok {
			return store.ErrNoProfile
		}
		return nil
	})
	return p, err
}

// changeProfiles runs change in one write transaction.
func (s *Store) changeProfiles(change func(b *boltProfiles) error) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := boltProfilesOf(tx)
		if err != nil {
			return err
		}
		if err := change(b); err != nil {
			return err
		}
		return b.err
	})
}

// KeyProfile implements store.Profiles.
func (s *Store) KeyProfile(_ context.Context, key string) (store.Profile, error) {
	return s.readProfile(func(b *boltProfiles) (string, bool) { return b.KeyOf(key) })
}

// Profile implements store.Profiles.
func (s *Store) Profile(_ context.Context, id string) (store.Profile, error) {
	return s.readProfile(func(*boltProfiles) (string, bool) { return id, true })
}

// NamedProfile implements store.Profiles.
func (s *Store) NamedProfile(_ context.Context, name string) (store.Profile, error) {
	return s.readProfile(func(b *boltProfiles) (string, bool) { return b.NameOf(store.NameKey(name)) })
}

// CreateProfile implements store.Profiles.
func (s *Store) CreateProfile(_ context.Context, p store.Profile) error {
	return s.changeProfiles(func(b *boltProfiles) error { return store.CreateProfile(b, p) })
}

// Rename implements store.Profiles.
func (s *Store) Rename(_ context.Context, id, name string) error {
	return s.changeProfiles(func(b *boltProfiles) error { return store.RenameProfile(b, id, name) })
}

// SetLang implements store.Profiles.
func (s *Store) SetLang(_ context.Context, id, lang string) error {
	return s.changeProfiles(func(b *boltProfiles) error { return store.SetProfileLang(b, id, lang) })
}

// SetPlain implements store.Profiles.
func (s *Store) SetPlain(_ context.Context, id string, plain bool) error {
	return s.changeProfiles(func(b *boltProfiles) error { return store.SetProfilePlain(b, id, plain) })
}

// LinkKey implements store.Profiles.
func (s *Store) LinkKey(_ context.Context, key, id string) error {
	return s.changeProfiles(func(b *boltProfiles) error { return store.LinkKey(b, key, id) })
}

// PutLinkCode implements store.Profiles.
func (s *Store) PutLinkCode(_ context.Context, code, id string, now, expires time.Time) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		links, err := tx.CreateBucketIfNotExists(linkCodesBucket)
		if err != nil {
			return err
		}
		// Forget the lapsed ones as new ones come: there are few.
		var lapsed [][]byte
		err = links.ForEach(func(k, v []byte) error {
			var l link
			if json.Unmarshal(v, &l) != nil || !now.Before(l.Expires) {
				lapsed = append(lapsed, k)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range lapsed {
			if err := links.Delete(k); err != nil {
				return err
			}
		}
		return putJSON(links, []byte(code), link{ID: id, Expires: expires})
	})
}

// TakeLinkCode implements store.Profiles.
func (s *Store) TakeLinkCode(_ context.Context, code string, now time.Time) (id string, err error) {
	err = s.db.Update(func(tx *bolt.Tx) error {
		links := tx.Bucket(linkCodesBucket)
		if links == nil {
			return store.ErrNoLinkCode
		}
		v := links.Get([]byte(code))
		if v == nil {
			return store.ErrNoLinkCode
		}
		var l link
		if err := json.Unmarshal(v, &l); err != nil {
			return fmt.Errorf("link code: %w", err)
		}
		if err := links.Delete([]byte(code)); err != nil {
			return err
		}
		if !now.Before(l.Expires) {
			return store.ErrNoLinkCode
		}
		id = l.ID
		return nil
	})
	return id, err
}

// Profiles implements store.Profiles.
func (s *Store) Profiles(context.Context) ([]store.Profile, error) {
	var out []store.Profile
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(profilesBucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			p, err := store.DecodeProfile(string(k), v)
			if err != nil {
				return err
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// DropProfile implements store.Profiles.
func (s *Store) DropProfile(_ context.Context, id string) error {
	return s.changeProfiles(func(b *boltProfiles) error { store.DropProfile(b, id); return nil })
}
