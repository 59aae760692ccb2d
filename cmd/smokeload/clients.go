package main

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"
)

// The players' SSH clients run in this process, on the same cores as
// the server they measure: what they cost decides how much of the
// machine is left to it, and whether they keep up with the rate they
// were asked for. clientUse is their CPU over the play.
type clientUse struct {
	cpu  time.Duration // this process's CPU time, user and system
	wall time.Duration
}

// cores is the clients' CPU over the play in cores: 1 is one core busy.
func (u clientUse) cores() float64 {
	if u.wall <= 0 {
		return 0
	}
	return u.cpu.Seconds() / u.wall.Seconds()
}

// processCPUSelf is this process's CPU time so far, user and system.
func processCPUSelf() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clientMeter measures the clients' CPU from start to stop, and writes
// their CPU profile over it to file (--client-cpu-profile) when named.
type clientMeter struct {
	out   *os.File // the profile's, while it is taken
	cpu   time.Duration
	began time.Time
}

func startClientMeter(file string) (*clientMeter, error) {
	m := &clientMeter{}
	if file != "" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return nil, err
		}
		f, err := os.Create(file)
		if err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, err
		}
		m.out = f
	}
	m.cpu, m.began = processCPUSelf(), time.Now()
	return m, nil
}

// stop ends the measure and the profile.
func (m *clientMeter) stop() (clientUse, error) {
	u := clientUse{cpu: processCPUSelf() - m.cpu, wall: time.Since(m.began)}
	var err error
	if m.out != nil {
		pprof.StopCPUProfile()
		err = m.out.Close()
		m.out = nil
	}
	if err != nil {
		return u, errors.Join(errors.New("client cpu profile"), err)
	}
	return u, nil
}
