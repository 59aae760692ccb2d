package bolt

// Commits is how many transactions s has committed (each one fsync).
func Commits(s *Store) int64 { return s.group.commits.Load() }
