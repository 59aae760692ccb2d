package main

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// yieldCores puts every thread of this process, the players' clients,
// in the kernel's idle class (SCHED_IDLE): they run only on a core
// nothing else wants. A server process started before keeps the normal
// class, so it has the machine's cores first, as it would with its
// players on other machines; the clients still get what it leaves.
// Threads the runtime makes later are cloned from these and inherit the
// class; one being made while the tasks were read is caught by the next
// call (--clients-idle makes one a second).
func yieldCores() error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		err = unix.SchedSetAttr(tid, &unix.SchedAttr{Policy: unix.SCHED_IDLE}, 0)
		if err != nil && !errors.Is(err, unix.ESRCH) { // ESRCH: the thread has ended
			return err
		}
	}
	return nil
}
