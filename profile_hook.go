//go:build profilehook

// A build of mcpscope with -tags profilehook profiles its own CPU when
// MCPSCOPE_CPUPROFILE names a file prefix: it writes a profile of each
// MCPSCOPE_CPUPROFILE_EVERY (default 10s) to PREFIX.COMMAND.PID.N.pprof,
// so a process that ends by os.Exit still leaves every window but its
// last. It measures a live process, such as a proxy under a benchmark; it
// is never part of a release build.

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

func init() {
	prefix := os.Getenv("MCPSCOPE_CPUPROFILE")
	if prefix == "" {
		return
	}
	every, err := time.ParseDuration(os.Getenv("MCPSCOPE_CPUPROFILE_EVERY"))
	if err != nil || every <= 0 {
		every = 10 * time.Second
	}
	command := "mcpscope"
	if len(os.Args) > 1 {
		command = os.Args[1]
	}
	go func() {
		for n := 0; ; n++ {
			f, err := os.Create(fmt.Sprintf("%s.%s.%d.%d.pprof", prefix, command, os.Getpid(), n))
			if err != nil {
				return
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return
			}
			time.Sleep(every)
			pprof.StopCPUProfile()
			f.Close()
		}
	}()
}
