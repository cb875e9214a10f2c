package stdio

import (
	"os"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
)

// Defaults of Config.
const (
	DefaultMaxFrameSize  = 10 << 20        // 10 MiB: a longer stdout line is an error frame
	DefaultConn          = "stdio"         // connection name of frames
	DefaultStderrTail    = 20              // stderr lines kept for the exit error
	DefaultShutdownGrace = 2 * time.Second // per step of the shutdown escalation

	maxStderrLine = 64 << 10 // a longer stderr line is cut and marked
	keptHead      = 4 << 10  // bytes kept of an over-long stdout line
	readBuffer    = 64 << 10 // initial line-reader buffer
)

// Config says which server to spawn and how to watch it.
type Config struct {
	Command string   // program to run, looked up in PATH when it has no slash
	Args    []string // arguments after the program name
	Env     []string // KEY=VALUE entries merged over os.Environ(); same keys are overridden
	Dir     string   // working directory; empty means the current one

	MaxFrameSize  int           // longest stdout line accepted, in bytes (default 10 MiB)
	Sink          capture.Sink  // receives every unit, both directions (nil → capture.Discard); must be safe for concurrent use
	Conn          string        // connection name for frames (default "stdio")
	StderrTail    int           // lines of stderr kept for the exit error (default 20)
	ShutdownGrace time.Duration // wait per step of close stdin → SIGTERM → SIGKILL (default 2s)
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.MaxFrameSize <= 0 {
		c.MaxFrameSize = DefaultMaxFrameSize
	}
	if c.Sink == nil {
		c.Sink = capture.Discard
	}
	if c.Conn == "" {
		c.Conn = DefaultConn
	}
	if c.StderrTail <= 0 {
		c.StderrTail = DefaultStderrTail
	}
	if c.ShutdownGrace <= 0 {
		c.ShutdownGrace = DefaultShutdownGrace
	}
	return c
}

// mergeEnv returns base with the entries of over applied: an entry whose key
// is already in base replaces it in place, a new key is appended, and a later
// entry of over wins over an earlier one.
func mergeEnv(base, over []string) []string {
	out := make([]string, 0, len(base)+len(over))
	index := make(map[string]int, len(base)+len(over))
	add := func(kv string) {
		key, _, _ := strings.Cut(kv, "=")
		if i, ok := index[key]; ok {
			out[i] = kv
			return
		}
		index[key] = len(out)
		out = append(out, kv)
	}
	for _, kv := range base {
		add(kv)
	}
	for _, kv := range over {
		add(kv)
	}
	return out
}

// environ is the child's environment for c.
func (c Config) environ() []string { return mergeEnv(os.Environ(), c.Env) }
