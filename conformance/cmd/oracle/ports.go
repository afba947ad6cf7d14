package main

import (
	"fmt"
	"math/rand"
	"net"
	"os"
)

// freePort returns a loopback port that nothing listens on, drawn at random from below the
// kernel's ephemeral range. A port taken from the ephemeral range (what listening on port 0 gives)
// is free only until the listener closes: the kernel hands the same range out to outgoing
// connections, and with two oracles starting at once, one apiserver's connections to its etcd
// took the port the other oracle had just chosen for its own etcd (CI, stop 39: "bind: address
// already in use"). Below the range, only another oracle drawing the same number can collide,
// and startEtcd retries that.
func freePort() (int, error) {
	low := ephemeralLow()
	const floor = 10000
	for attempt := 0; attempt < 200 && low > floor; attempt++ {
		port := floor + rand.Intn(low-floor)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		l.Close()
		return port, nil
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ephemeralLow is the first port of the kernel's ephemeral range (Linux's default is 32768).
func ephemeralLow() int {
	low, high := 32768, 0
	if data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		fmt.Sscan(string(data), &low, &high)
	}
	return low
}
