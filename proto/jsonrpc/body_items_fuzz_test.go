package jsonrpc

import (
	"encoding/json"
	"testing"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// checkBodyItems asserts what BodyItems promises of any body: items
// inside the body, in pre-order (each nested in the one before it at the
// depth above), heads and names inside their items, safe labels, bounded
// count and depth, and at most one undecodable rest, last.
func checkBodyItems(t *testing.T, items []BodyItem, base, n int, wellFormed bool) {
	t.Helper()
	if len(items) > MaxBodyItems+2 {
		t.Fatalf("%d items, over the limit", len(items))
	}
	var open []BodyItem // the chain of containers of the item being checked
	for i, it := range items {
		if it.Offset < base || it.Len < 0 || it.Offset+it.Len > base+n || it.Head > it.Len || it.Value > it.Len || it.Head < 0 || it.Value < 0 {
			t.Fatalf("item %d %+v is not inside the body [%d, %d)", i, it, base, base+n)
		}
		if it.Depth < 0 || it.Depth > MaxBodyItemDepth || !termtext.Safe(it.Label) || it.Label == "" {
			t.Fatalf("item %d %+v: depth or label", i, it)
		}
		switch it.Role {
		case ItemUndecodable:
			if wellFormed || i != len(items)-1 {
				t.Fatalf("item %d of %d is undecodable: %+v (well formed: %v)", i, len(items), it, wellFormed)
			}
			continue
		case ItemElided:
			continue
		}
		if it.Len == 0 {
			t.Fatalf("item %d %+v is empty", i, it)
		}
		for len(open) > it.Depth {
			open = open[:len(open)-1]
		}
		if len(open) != it.Depth {
			t.Fatalf("item %d %+v at depth %d follows %d open items", i, it, it.Depth, len(open))
		}
		if d := len(open); d > 0 {
			p := open[d-1]
			if it.Offset < p.Offset+max(p.Head, p.Value) || it.Offset+it.Len > p.Offset+p.Len {
				t.Fatalf("item %d %+v is not inside its container %+v", i, it, p)
			}
		}
		open = append(open, it)
	}
}

func FuzzBodyItemsCBOR(f *testing.F) {
	addCBORSeeds(f)
	f.Add(prototest.Unhex(f, toolsCallCBOR))
	f.Add(prototest.Unhex(f, "a2 61 61 78 05 6162"))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := CBORToJSON(body)
		checkBodyItems(t, BodyItems(proto.EncCBOR, body, 4), 4, len(body), err == nil)
	})
}

func FuzzBodyItemsJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":[1,2`))
	f.Add([]byte(`{"a" 1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkBodyItems(t, BodyItems(proto.EncJSON, body, 1), 1, len(body), json.Valid(body))
	})
}
