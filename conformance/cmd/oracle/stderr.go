package main

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// redirectStderr points file descriptor 2 at a log file, and returns a function that points it
// back (so that the oracle's own last words reach the suite).
func redirectStderr(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	saved, err := unix.Dup(2)
	if err != nil {
		return nil, err
	}
	if err := unix.Dup2(int(f.Fd()), 2); err != nil {
		return nil, err
	}
	return func() {
		_ = unix.Dup2(saved, 2)
		_ = unix.Close(saved)
		_ = f.Close()
	}, nil
}

func printTail(path string, lines int) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	fmt.Fprintln(os.Stderr, strings.Join(all, "\n"))
}
