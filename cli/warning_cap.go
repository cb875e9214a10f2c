package cli

import (
	"fmt"
	"sync"
)

// warningLimit is how many warnings a warningCap prints before it only
// counts them.
const warningLimit = 5

// warningCap prints warnings on stderr, the first warningLimit of them in
// all, and counts the rest by what they are, for Flush to say how many
// were not shown: a server that floods the run with faults gets a few
// lines and a count, never a line each. It is safe for concurrent use.
type warningCap struct {
	mu     sync.Mutex
	out    *lineWriter
	shown  int
	hidden []heldBack // in the order the first of each was held back
}

// heldBack counts the warnings about one kind of thing not shown.
type heldBack struct {
	what string // the things, plural: "undecodable frames from the server"
	n    int
}

// Warn prints the warning text gives, while under the limit; past it, it
// counts one more of what (a plural noun phrase) for Flush.
func (c *warningCap) Warn(what string, text func() string) { c.say("warning: ", what, text) }

// Note prints a note as Warn prints a warning, under the same limit.
func (c *warningCap) Note(what string, text func() string) { c.say("note: ", what, text) }

// say prints prefix and the text, while under the limit; past it, it
// counts one more of what.
func (c *warningCap) say(prefix, what string, text func() string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shown < warningLimit {
		c.shown++
		c.out.Println(prefix + text())
		return
	}
	for i := range c.hidden {
		if c.hidden[i].what == what {
			c.hidden[i].n++
			return
		}
	}
	c.hidden = append(c.hidden, heldBack{what: what, n: 1})
}

// Flush prints how many warnings of each kind were held back, if any.
func (c *warningCap) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range c.hidden {
		c.out.Println(fmt.Sprintf("warning: %d more %s were not shown", h.n, h.what))
	}
	c.hidden = nil
}
