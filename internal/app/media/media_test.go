package media

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/mediatest"
)

func TestGoldenHalfBlocks(t *testing.T) {
	img, info, err := Decode(mediatest.Quadrants(t, 8, 6))
	if err != nil {
		t.Fatal(err)
	}
	if info.String() != "8×6 png" {
		t.Errorf("info %q", info)
	}
	lines := HalfBlocks(img, 40, 12)
	if len(lines) != 3 {
		t.Fatalf("%d rows for 6 pixel rows, want 3", len(lines))
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w != 8 {
			t.Errorf("row %q is %d cells wide, want 8", l, w)
		}
	}
	goldentest.Check(t, "halfblocks", strings.Join(lines, "\n")+"\n")
	// scaled down, the aspect kept: 8×6 in 4 columns is 4×3 pixels, 2 rows
	if got := HalfBlocks(img, 4, 12); len(got) != 2 || ansi.StringWidth(got[0]) != 4 {
		t.Errorf("scaled: %q", got)
	}
}

func TestFit(t *testing.T) {
	for _, c := range []struct{ w, h, mw, mh, ww, wh int }{
		{20, 20, 40, 24, 20, 20}, {100, 50, 40, 24, 40, 20}, {1, 10000, 40, 24, 1, 24},
		{10000, 1, 40, 24, 40, 1}, {0, 5, 40, 24, 0, 0}, {50, 100, 40, 24, 12, 24},
	} {
		if w, h := Fit(c.w, c.h, c.mw, c.mh); w != c.ww || h != c.wh {
			t.Errorf("Fit(%d,%d,%d,%d) = %d,%d, want %d,%d", c.w, c.h, c.mw, c.mh, w, h, c.ww, c.wh)
		}
	}
}

func TestHostileImages(t *testing.T) {
	_, _, err := Decode(mediatest.LyingPNG(100000, 100000))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("a 100000×100000 header: %v, want ErrTooLarge", err)
	}
	if got := Describe("image", "image/png", mediatest.LyingPNG(100000, 100000)); got != "100000×100000" {
		t.Errorf("Describe: %q", got)
	}
	if _, _, err := Decode(nil); err == nil {
		t.Error("no data decoded")
	}
	tall := mediatest.Quadrants(t, 1, 10000)
	lines := Preview(Item{Kind: "image", Base64: base64.StdEncoding.EncodeToString(tall)}, 40, 12)
	if len(lines) != 12 || ansi.StringWidth(lines[0]) != 1 {
		t.Errorf("1×10000: %d rows, first %q", len(lines), lines[0])
	}
	b64 := base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6))
	for name, it := range map[string]Item{
		"truncated base64": {Kind: "image", Base64: b64[:len(b64)-3]},
		"cut image":        {Kind: "image", Base64: base64.StdEncoding.EncodeToString(mediatest.Quadrants(t, 8, 6)[:40])},
		"lying header":     {Kind: "image", Base64: base64.StdEncoding.EncodeToString(mediatest.LyingPNG(100000, 100000))},
		"not an image":     {Kind: "image", Base64: base64.StdEncoding.EncodeToString([]byte("hello"))},
		"empty":            {Kind: "image", Base64: ""},
		"zero sides":       {Kind: "image", Base64: base64.StdEncoding.EncodeToString(mediatest.LyingPNG(0, 5))},
	} {
		got := Preview(it, 40, 12)
		if len(got) != 1 || !strings.HasPrefix(got[0], "no preview: ") {
			t.Errorf("%s: %q, want one line saying why", name, got)
		}
	}
}

func TestWAV(t *testing.T) {
	w, err := ParseWAV(mediatest.WAV(8000, 4000, 0.9, -1))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := w.String(), "1 ch · 8000 Hz · 16-bit PCM · 0.50 s"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	if w.Duration() != 500*time.Millisecond {
		t.Errorf("duration %v", w.Duration())
	}
	strip := Strip(w, 24)
	goldentest.Check(t, "strip", strip+"\n")
	if r := []rune(strip); len(r) != 24 || r[0] >= r[23] {
		t.Errorf("strip %q: want 24 glyphs rising", strip)
	}
	// a data chunk that says 1 GiB: the bytes held count, and it says so
	lying, err := ParseWAV(mediatest.WAV(8000, 800, 0.5, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	if lying.Duration() != 100*time.Millisecond || !strings.Contains(lying.String(), "cut short") {
		t.Errorf("lying length: %v %q", lying.Duration(), lying.String())
	}
	empty, err := ParseWAV(mediatest.WAV(8000, 0, 0, -1))
	if err != nil || Strip(empty, 10) != "" || !strings.Contains(empty.String(), "0.00 s") {
		t.Errorf("empty clip: %v %q %q", err, Strip(empty, 10), empty.String())
	}
	for name, b := range map[string][]byte{"nothing": nil, "header cut": mediatest.WAV(8000, 10, 1, -1)[:30], "not riff": []byte("RIFX0000WAVEfmt ")} {
		if _, err := ParseWAV(b); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	if got := Describe("audio", "audio/mpeg", []byte{1, 2, 3}); got != "duration unknown" {
		t.Errorf("mp3: %q", got)
	}
}

func TestFileName(t *testing.T) {
	for _, c := range []struct {
		it   Item
		n    int
		want string
	}{
		{Item{MimeType: "image/png"}, 1, "content-1.png"},
		{Item{MimeType: "audio/wav"}, 2, "content-2.wav"},
		{Item{MimeType: "application/x-weird"}, 3, "content-3.bin"},
		{Item{URI: "test://static/resource/2.png", MimeType: "image/png"}, 1, "2.png"},
		{Item{URI: "file:///tmp/../..", MimeType: "image/png"}, 1, "content-1.png"},
		{Item{URI: "demo://x/.hidden", MimeType: "text/plain"}, 1, "hidden"},
		{Item{URI: "demo://x/evil%E2%80%AEgnp.exe%C2%9B", MimeType: "text/plain"}, 1, "evilgnp.exe"},
		{Item{URI: "demo://x/" + strings.Repeat("é", 300)}, 1, strings.Repeat("é", 100)},
		{Item{URI: "demo://x/a\x1b[2J", MimeType: "text/plain"}, 1, "content-1.txt"},
		{Item{URI: "file:///a/%20%20", MimeType: "image/png"}, 1, "content-1.png"},
		{Item{URI: "file:///a/%E3%80%80", MimeType: "image/png"}, 2, "content-2.png"},
		{Item{URI: "file:///a/%7E", MimeType: "image/png"}, 3, "content-3.png"},
		{Item{URI: "file:///a/x%EF%BC%8F..%EF%BC%8Fy", MimeType: "image/png"}, 1, "x_.._y"},
		{Item{URI: "file:///a/\u2215etc\u2215passwd", MimeType: "image/png"}, 1, "_etc_passwd"},
		{Item{URI: "file:///a/%20.x%20", MimeType: "image/png"}, 1, "x"},
	} {
		if got := c.it.FileName(c.n); got != c.want {
			t.Errorf("FileName(%+v) = %q, want %q", c.it, got, c.want)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want Protocol
	}{
		{map[string]string{"TERM": "xterm-kitty"}, Kitty},
		{map[string]string{"TERM_PROGRAM": "iTerm.app"}, ITerm},
		{map[string]string{"TERM_PROGRAM": "WezTerm"}, ITerm},
		{map[string]string{"TERM": "foot"}, Sixel},
		{map[string]string{"TERM": "xterm-256color"}, Blocks},
		{map[string]string{"TERM": "xterm-kitty", "TMUX": "/tmp/tmux"}, Blocks},
		{map[string]string{"TERM": "xterm-kitty", EnvVar: "off"}, Off},
		{map[string]string{EnvVar: "SIXEL"}, Sixel},
	} {
		if got, err := Detect(func(k string) string { return c.env[k] }); err != nil || got != c.want {
			t.Errorf("Detect(%v) = %v, %v; want %v", c.env, got, err, c.want)
		}
	}
	if _, err := Detect(func(k string) string { return map[string]string{EnvVar: "holo"}[k] }); err == nil {
		t.Error("a bad MCPSCOPE_IMAGES is accepted")
	}
}

func TestInline(t *testing.T) {
	data := mediatest.Quadrants(t, 8, 6)
	img, _, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for p, prefix := range map[Protocol]string{Kitty: "\x1b_G", ITerm: "\x1b]1337;File=", Sixel: "\x1bP0;1q", Blocks: "\x1b[", Off: ""} {
		got, err := Inline(p, img, 40, 12)
		if err != nil || !strings.HasPrefix(got, prefix) {
			t.Errorf("%v: %q… %v, want it to start %q", p, got[:min(len(got), 20)], err, prefix)
		}
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	it := Item{Kind: "audio", MimeType: "audio/wav", Base64: base64.StdEncoding.EncodeToString(mediatest.WAV(8000, 10, 1, -1))}
	path := dir + "/" + it.FileName(1)
	n, err := it.Save(path, false)
	if err != nil || n != 64 || !Exists(path) {
		t.Fatalf("save: %d, %v", n, err)
	}
	other := Item{Kind: "blob", Base64: "AAEC"}
	if _, err := other.Save(path, false); !errors.Is(err, ErrExists) {
		t.Errorf("overwrote without asking: %v", err)
	}
	if n, err := other.Save(path, true); err != nil || n != 3 {
		t.Errorf("replace: %d, %v", n, err)
	}
	if _, err := (Item{Base64: "!!"}).Save(dir+"/bad", false); err == nil || Exists(dir+"/bad") {
		t.Errorf("bad base64 saved: %v", err)
	}
}

// A PNG whose chunk checksums are wrong is shown, as browsers show it.
func TestPNGWithWrongChecksums(t *testing.T) {
	data := mediatest.Quadrants(t, 8, 6)
	for i := range 4 {
		data[len(data)-1-i] ^= 0xff // IEND's checksum
	}
	if _, _, err := Decode(data); err != nil {
		t.Fatal(err)
	}
}

// A tall image keeps within its rows in every protocol.
func TestInlineTallImage(t *testing.T) {
	data := mediatest.Quadrants(t, 1, 10000)
	img, _, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[Protocol]string{Kitty: "c=1,r=12", ITerm: "width=1;height=12"} {
		got, err := Inline(p, img, 40, 12)
		if err != nil || !strings.Contains(got, want) {
			t.Errorf("%v: %q…, want %s", p, got[:min(len(got), 60)], want)
		}
	}
	if got, _ := Inline(Blocks, img, 40, 12); strings.Count(got, "\n") != 12 {
		t.Errorf("half blocks: %d rows", strings.Count(got, "\n"))
	}
}
