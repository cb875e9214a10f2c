package jsonrpc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/internal/prototest"
)

// toolsCallCBOR is {"jsonrpc":"2.0","id":1,"method":"tools/call",
// "params":{"name":"echo","arguments":{"x":3}}} written by hand in CBOR.
const toolsCallCBOR = "a4" + // map(4)
	"67 6a736f6e727063 63 322e30" + // "jsonrpc": "2.0"
	"62 6964 01" + // "id": 1
	"66 6d6574686f64 6a 746f6f6c732f63616c6c" + // "method": "tools/call"
	"66 706172616d73 a2" + // "params": map(2)
	"64 6e616d65 64 6563686f" + // "name": "echo"
	"69 617267756d656e7473 a1 61 78 03" // "arguments": {"x": 3}

// itemRow is a BodyItem as a test spells it.
type itemRow struct {
	off, n, head, value, depth int
	path, key                  string
	role                       ItemRole
	label                      string
}

// rowsOf spells items as rows.
func rowsOf(items []BodyItem) []itemRow {
	rows := make([]itemRow, len(items))
	for i, it := range items {
		rows[i] = itemRow{it.Offset, it.Len, it.Head, it.Value, it.Depth, it.Path, it.Key, it.Role, it.Label}
	}
	return rows
}

// checkRows compares items with the rows wanted, row by row.
func checkRows(t *testing.T, items []BodyItem, want []itemRow) {
	t.Helper()
	got := rowsOf(items)
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			t.Errorf("item %d missing, want %+v", i, want[i])
		case i >= len(want):
			t.Errorf("item %d %+v not wanted", i, got[i])
		case got[i] != want[i]:
			t.Errorf("item %d\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

func TestBodyItemsOfCBORMessage(t *testing.T) {
	body := prototest.Unhex(t, toolsCallCBOR)
	// The body of a control frame starts after its 4-byte length prefix.
	items := BodyItems(proto.EncCBOR, body, 4)
	checkRows(t, items, []itemRow{
		{4, 67, 1, 0, 0, "", "", ItemValue, "map(4)"},
		{5, 8, 1, 0, 1, "jsonrpc", "jsonrpc", ItemKey, `text(7) "jsonrpc"`},
		{13, 4, 1, 0, 1, "jsonrpc", "jsonrpc", ItemValue, `text(3) "2.0"`},
		{17, 3, 1, 0, 1, "id", "id", ItemKey, `text(2) "id"`},
		{20, 1, 1, 0, 1, "id", "id", ItemValue, "uint 1"},
		{21, 7, 1, 0, 1, "method", "method", ItemKey, `text(6) "method"`},
		{28, 11, 1, 0, 1, "method", "method", ItemValue, `text(10) "tools/call"`},
		{39, 7, 1, 0, 1, "params", "params", ItemKey, `text(6) "params"`},
		{46, 25, 1, 0, 1, "params", "params", ItemValue, "map(2)"},
		{47, 5, 1, 0, 2, "params.name", "name", ItemKey, `text(4) "name"`},
		{52, 5, 1, 0, 2, "params.name", "name", ItemValue, `text(4) "echo"`},
		{57, 10, 1, 0, 2, "params.arguments", "arguments", ItemKey, `text(9) "arguments"`},
		{67, 4, 1, 0, 2, "params.arguments", "arguments", ItemValue, "map(1)"},
		{68, 2, 1, 0, 3, "params.arguments.x", "x", ItemKey, `text(1) "x"`},
		{70, 1, 1, 0, 3, "params.arguments.x", "x", ItemValue, "uint 3"},
	})
	// The codec reads the same bytes as the same message.
	if m, err := Decode(proto.EncCBOR, body); err != nil || m.Method != "tools/call" || string(m.Params) != `{"name":"echo","arguments":{"x":3}}` {
		t.Fatalf("the hand-written body decodes to %+v, %v", m, err)
	}
}

func TestBodyItemsOfCBORKinds(t *testing.T) {
	body := prototest.Unhex(t, "8b"+ // array(11)
		"38 63"+ // -100
		"59 0400"+strings.Repeat("ab", 1024)+ // bytes(1024)
		"c2 42 0100"+ // tag 2 (bignum) around bytes(2)
		"fb 3fe0000000000000"+ // 0.5
		"f9 7c00"+ // Infinity
		"f4 f5 f6 f7 f0"+ // false true null undefined simple(16)
		"7f 62 6162 61 63 ff"+ // text(_) "abc" in two chunks
		"9f 01 ff"+ // array(_) [1]
		"a2 01 02 20 03") // map(2) {1: 2, -1: 3}
	items := BodyItems(proto.EncCBOR, body, 0)
	rows := rowsOf(items)
	var labels []string
	for _, r := range rows {
		labels = append(labels, fmt.Sprintf("%d %s %s", r.depth, r.path, r.label))
	}
	want := []string{
		"0  array(11)",
		"1 [0] negint -100",
		"1 [1] bytes(1024) h'abababababababab…'",
		"1 [2] tag 2",
		"2 [2] bytes(2) h'0100'",
		"1 [3] float64 0.5",
		"1 [4] float16 Infinity",
		"1 [5] false", "1 [6] true", "1 [7] null", "1 [8] undefined", "1 [9] simple(16)",
		`1 [10] text(_) "abc"`,
		// The array holds 11 items: the indefinite array and the map are trailing bytes.
		"0  undecodable from here: 8 bytes after the body's item",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Fatalf("labels\n%s\nwant\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	if r := rows[2]; r.off != 3 || r.n != 3+1024 || r.head != 3 {
		t.Errorf("bytes(1024) at %d+%d, head %d; want 3+1027, head 3", r.off, r.n, r.head)
	}
	if r := rows[6]; r.head != 3 || r.n != 3 {
		t.Errorf("float16 head %d, length %d; want 3 and 3", r.head, r.n)
	}
	// Integer keys name their pairs; an indefinite array ends at its break code.
	body = prototest.Unhex(t, "a2 01 9f 01 ff 20 03")
	checkRows(t, BodyItems(proto.EncCBOR, body, 0), []itemRow{
		{0, 7, 1, 0, 0, "", "", ItemValue, "map(2)"},
		{1, 1, 1, 0, 1, "1", "1", ItemKey, "uint 1"},
		{2, 3, 1, 0, 1, "1", "1", ItemValue, "array(_)"},
		{3, 1, 1, 0, 2, "1[0]", "", ItemValue, "uint 1"},
		{5, 1, 1, 0, 1, "-1", "-1", ItemKey, "negint -1"},
		{6, 1, 1, 0, 1, "-1", "-1", ItemValue, "uint 3"},
	})
}

func TestBodyItemsOfJSONMessage(t *testing.T) {
	body := []byte(`{"jsonrpc":"2.0", "id":1,"params":{"name":"echo","arguments":{"x":3,"l":[true,{}]}}}`)
	items := BodyItems(proto.EncJSON, body, 1) // after one byte of framing, say
	checkRows(t, items, []itemRow{
		{1, 84, 0, 0, 0, "", "", ItemValue, "object(3)"},
		{2, 15, 0, 10, 1, "jsonrpc", "jsonrpc", ItemValue, `"jsonrpc": "2.0"`},
		{19, 6, 0, 5, 1, "id", "id", ItemValue, `"id": 1`},
		{26, 58, 0, 9, 1, "params", "params", ItemValue, `"params": object(2)`},
		{36, 13, 0, 7, 2, "params.name", "name", ItemValue, `"name": "echo"`},
		{50, 33, 0, 12, 2, "params.arguments", "arguments", ItemValue, `"arguments": object(2)`},
		{63, 5, 0, 4, 3, "params.arguments.x", "x", ItemValue, `"x": 3`},
		{69, 13, 0, 4, 3, "params.arguments.l", "l", ItemValue, `"l": array(2)`},
		{74, 4, 0, 0, 4, "params.arguments.l[0]", "", ItemValue, "true"},
		{79, 2, 0, 0, 4, "params.arguments.l[1]", "", ItemValue, "object(0)"},
	})
	// The name span is the member's first Value bytes; the value follows.
	if it := items[1]; string(body[it.Offset-1:it.Offset-1+it.Value]) != `"jsonrpc":` || string(body[it.Offset-1+it.Value:it.Offset-1+it.Len]) != `"2.0"` {
		t.Errorf("member spans %q then %q", body[it.Offset-1:it.Offset-1+it.Value], body[it.Offset-1+it.Value:it.Offset-1+it.Len])
	}
	// A scalar body and an array body.
	checkRows(t, BodyItems(proto.EncJSON, []byte(" -0 "), 0), []itemRow{{1, 2, 0, 0, 0, "", "", ItemValue, "-0"}})
	checkRows(t, BodyItems(proto.EncJSON, []byte(`[{"a":1}]`), 0), []itemRow{
		{0, 9, 0, 0, 0, "", "", ItemValue, "array(1)"},
		{1, 7, 0, 0, 1, "[0]", "", ItemValue, "object(1)"},
		{2, 5, 0, 4, 2, "[0].a", "a", ItemValue, `"a": 1`},
	})
}

func TestBodyItemsOfBrokenBodies(t *testing.T) {
	cases := []struct {
		enc  proto.Encoding
		body []byte
		want []itemRow
	}{
		{proto.EncCBOR, prototest.Unhex(t, "a2 61 61 78 05 6162"), []itemRow{ // "a": text(5) with 2 bytes
			{0, 7, 1, 0, 0, "", "", ItemValue, "map(2)"},
			{1, 2, 1, 0, 1, "a", "a", ItemKey, `text(1) "a"`},
			{3, 4, 0, 0, 1, "", "", ItemUndecodable, "undecodable from here: the body ends inside this item"},
		}},
		{proto.EncCBOR, prototest.Unhex(t, "82 01 1c 02"), []itemRow{ // reserved additional information 28
			{0, 4, 1, 0, 0, "", "", ItemValue, "array(2)"},
			{1, 1, 1, 0, 1, "[0]", "", ItemValue, "uint 1"},
			{2, 2, 0, 0, 1, "", "", ItemUndecodable, "undecodable from here: not well-formed CBOR"},
		}},
		{proto.EncCBOR, prototest.Unhex(t, "ff 00"), []itemRow{
			{0, 2, 0, 0, 0, "", "", ItemUndecodable, "undecodable from here: a break code stands where the body's item belongs"},
		}},
		{proto.EncCBOR, prototest.Unhex(t, "bf 61 61 ff"), []itemRow{ // a key without its value
			{0, 4, 1, 0, 0, "", "", ItemValue, "map(_)"},
			{1, 2, 1, 0, 1, "a", "a", ItemKey, `text(1) "a"`},
			{3, 1, 0, 0, 1, "", "", ItemUndecodable, "undecodable from here: a break code stands where a data item belongs"},
		}},
		{proto.EncJSON, []byte(`{"a":[1,2`), []itemRow{
			{0, 9, 0, 0, 0, "", "", ItemValue, "object(≥1)"},
			{1, 8, 0, 4, 1, "a", "a", ItemValue, `"a": array(≥2)`},
			{6, 1, 0, 0, 2, "a[0]", "", ItemValue, "1"},
			{8, 1, 0, 0, 2, "", "", ItemUndecodable, "undecodable from here: the body ends inside this value"},
		}},
		{proto.EncJSON, []byte(`{"a" 1}`), []itemRow{
			{0, 7, 0, 0, 0, "", "", ItemValue, "object(≥1)"},
			{1, 6, 0, 0, 1, "", "", ItemUndecodable, `undecodable from here: not JSON: a member's quoted name and ":" belong here`},
		}},
		{proto.EncJSON, []byte(`[1 2]`), []itemRow{
			{0, 5, 0, 0, 0, "", "", ItemValue, "array(≥1)"},
			{1, 1, 0, 0, 1, "[0]", "", ItemValue, "1"},
			{3, 2, 0, 0, 1, "", "", ItemUndecodable, `undecodable from here: not JSON: "," or a closing bracket belongs here`},
		}},
		{proto.EncJSON, []byte("{}\n{}"), []itemRow{
			{0, 2, 0, 0, 0, "", "", ItemValue, "object(0)"},
			{3, 2, 0, 0, 0, "", "", ItemUndecodable, "undecodable from here: 2 bytes after the body's item"},
		}},
		{proto.EncJSON, []byte(`"open`), []itemRow{
			{0, 5, 0, 0, 0, "", "", ItemUndecodable, "undecodable from here: the body ends inside this value"},
		}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %q", c.enc, c.body), func(t *testing.T) {
			checkRows(t, BodyItems(c.enc, c.body, 0), c.want)
		})
	}
	for _, enc := range []proto.Encoding{proto.EncCBOR, proto.EncJSON, proto.EncBinary, proto.EncText} {
		if items := BodyItems(enc, nil, 4); items != nil {
			t.Errorf("%s: an empty body has items %+v", enc, items)
		}
	}
	if items := BodyItems(proto.EncBinary, []byte{0xa0}, 0); items != nil {
		t.Errorf("a binary payload has items %+v", items)
	}
	// Every cut of a message ends in one undecodable rest, the last item.
	full := prototest.Unhex(t, toolsCallCBOR)
	for n := 1; n < len(full); n++ {
		items := BodyItems(proto.EncCBOR, full[:n], 0)
		last := items[len(items)-1]
		if last.Role != ItemUndecodable || last.Offset+last.Len != n {
			t.Fatalf("cut at %d: last item %+v", n, last)
		}
	}
}

func TestBodyItemsLimits(t *testing.T) {
	// An array of 5000 integers: 4096 items annotated, the rest said.
	body := appendCBORHead(nil, cborArray, 5000)
	for range 5000 {
		body = append(body, 0x01)
	}
	items := BodyItems(proto.EncCBOR, body, 0)
	if len(items) != MaxBodyItems+1 {
		t.Fatalf("%d items, want %d and the elided rest", len(items), MaxBodyItems+1)
	}
	if root := items[0]; root.Len != len(body) {
		t.Errorf("the array is %d bytes, want %d: its end is found past the limit", root.Len, len(body))
	}
	first := 3 + MaxBodyItems - 1 // the head, then the items annotated
	if e := items[MaxBodyItems]; e.Role != ItemElided || e.Offset != first || e.Len != len(body)-first || e.Label != "905 more items not annotated (at most 4096 are)" {
		t.Errorf("elided rest %+v", e)
	}
	// JSON, as many members.
	var b strings.Builder
	b.WriteString("[")
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("1")
	}
	b.WriteString("]")
	items = BodyItems(proto.EncJSON, []byte(b.String()), 0)
	if len(items) != MaxBodyItems+1 || items[0].Label != "array(5000)" || items[MaxBodyItems].Label != "905 more items not annotated (at most 4096 are)" {
		t.Fatalf("%d JSON items, first %q, last %q", len(items), items[0].Label, items[len(items)-1].Label)
	}
	// Nesting: deeper than MaxBodyItemDepth is walked, not annotated;
	// deeper than CBORMaxNestedLevels does not decode.
	for _, c := range []struct {
		enc        proto.Encoding
		body       []byte
		last, ends string
	}{
		{proto.EncCBOR, append(bytes.Repeat([]byte{0x81}, 100), 0x00), "array(1) (deeper items not annotated)", "array(1) (deeper items not annotated)"},
		{proto.EncJSON, []byte(strings.Repeat("[", 100) + strings.Repeat("]", 100)), "array (deeper items not annotated)", "array (deeper items not annotated)"},
		{proto.EncJSON, []byte(strings.Repeat("[", 20000) + strings.Repeat("]", 20000)), "array (deeper items not annotated)", "array (deeper items not annotated)"},
		{proto.EncCBOR, append(bytes.Repeat([]byte{0x81}, 200), 0x00), "array(1) (deeper items not annotated)", "undecodable from here: nests deeper than 128 levels"},
	} {
		items := BodyItems(c.enc, c.body, 0)
		deepest := items[MaxBodyItemDepth]
		if deepest.Depth != MaxBodyItemDepth || deepest.Label != c.last || items[len(items)-1].Label != c.ends || items[len(items)-1].Depth > MaxBodyItemDepth {
			t.Errorf("%s nested %d bytes: item at depth %d %q, last %q", c.enc, len(c.body), deepest.Depth, deepest.Label, items[len(items)-1].Label)
		}
		if items[0].Len != len(c.body) {
			t.Errorf("%s nested: outer item %d bytes, want %d", c.enc, items[0].Len, len(c.body))
		}
	}
}

func TestBodyItemsTextIsBoundedAndSafe(t *testing.T) {
	long := strings.Repeat("k", 1000)
	nested := `{"` + long + `":{"` + long + `":{"x\u001b]0;pwned\u0007":"\u001b[2J` + long + `"}}}`
	items := BodyItems(proto.EncJSON, []byte(nested), 0)
	last := items[len(items)-1]
	if len(last.Key) > maxItemKey+len("…") || len(last.Path) > maxItemPath+len("…") {
		t.Errorf("key %d bytes, path %d bytes", len(last.Key), len(last.Path))
	}
	if !strings.HasPrefix(last.Label, `"x\x1b]0;pwned\x07": "\u001b[2Jkkk`) || !strings.HasSuffix(last.Label, "…") {
		t.Errorf("label %q", last.Label)
	}
	c, err := JSONToCBOR([]byte(nested))
	if err != nil {
		t.Fatal(err)
	}
	items = BodyItems(proto.EncCBOR, c, 0)
	if last := items[len(items)-1]; last.Label != `text(1004) "\x1b[2Jkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"…` || last.Key != "x\x1b]0;pwned\x07" {
		t.Errorf("CBOR label %q, key %q", last.Label, last.Key)
	}
}
