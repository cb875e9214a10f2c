package httpconf

import (
	"testing"

	"github.com/mcpscope/mcpscope/proto/flow"
)

// TestWithDefaults: the zero limit becomes the default and a nil Warn a
// no-op; what the caller set is kept.
func TestWithDefaults(t *testing.T) {
	c := Client{}.WithDefaults()
	if c.MaxFrameSize != flow.DefaultMaxControlFrame || c.Warn == nil {
		t.Fatalf("defaults: MaxFrameSize %d, Warn set %v", c.MaxFrameSize, c.Warn != nil)
	}
	c.Warn("no one listens")
	var told string
	c = Client{MaxFrameSize: 1024, Warn: func(s string) { told = s }}.WithDefaults()
	c.Warn("kept")
	if c.MaxFrameSize != 1024 || told != "kept" {
		t.Fatalf("set fields: MaxFrameSize %d, told %q", c.MaxFrameSize, told)
	}
}
