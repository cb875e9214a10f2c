package cli

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// tinyImage is the tools/call of the TypeScript reference's image tool.
const tinyImage = `{"name":"get-tiny-image"}`

// imageOf returns the decoded data of the image content of a tools/call
// result's JSON.
func imageOf(t *testing.T, raw string) []byte {
	t.Helper()
	var res struct {
		Content []struct{ Type, Data string }
	}
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		t.Fatalf("the result is not JSON: %v\n%s", err, raw)
	}
	for _, c := range res.Content {
		if c.Type == "image" {
			b, err := base64.StdEncoding.DecodeString(c.Data)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("no image in %s", raw)
	return nil
}

// Against the TypeScript reference over stdio, at a terminal: the tools
// list is a table that fits the terminal, and a tools/call prints its
// text and one line for its image; piped, the result is today's JSON, and
// --format json at a terminal prints it indented.
func TestOutputTextAtATerminalTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	r := mcpscopeAtTerminal(t, 100, withTarget(ts, "tools")...)
	r.mustExit(t, ExitOK)
	checkFits(t, r.stdout, 100)
	for _, want := range []string{`(?m)^NAME +TITLE +DESCRIPTION$`, `(?m)^echo +Echo Tool +Echoes back the input string$`,
		`(?m)^get-annotated-message +Get Annotated Message Tool +Demonstrates how .*…$`} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("the tools table does not match %s:\n%s", want, r.stdout)
		}
	}

	piped := mcpscope(t, withTarget(ts, "call", "tools/call", tinyImage)...)
	piped.mustExit(t, ExitOK)
	checkResultOnly(t, piped, `"type":"image"`)
	img := imageOf(t, piped.stdout)

	r = mcpscopeAtTerminal(t, 100, withTarget(ts, "call", "tools/call", tinyImage)...)
	r.mustExit(t, ExitOK)
	checkLines(t, r, "Here's the image you requested:", "[image image/png 20×20 "+humanize.IBytes(uint64(len(img)))+"]",
		"The image above is the MCP logo.")

	r = mcpscopeAtTerminal(t, 100, withTarget(ts, "call", "--format", "json", "tools/call", tinyImage)...)
	r.mustExit(t, ExitOK)
	indented, err := formatJSON([]byte(piped.stdout), true)
	if err != nil || r.stdout != string(indented) {
		t.Errorf("--format json at a terminal is not the result indented: %v\n%s", err, r.stdout)
	}
}

// --raw writes the exact bytes of the image the TypeScript reference
// sends, into --output FILE (0644, stderr says so) or to a piped stdout;
// to a terminal it is refused before anything connects.
func TestRawImageTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	piped := mcpscope(t, withTarget(ts, "call", "tools/call", tinyImage)...)
	piped.mustExit(t, ExitOK)
	img := imageOf(t, piped.stdout)

	file := filepath.Join(t.TempDir(), "logo.png")
	r := mcpscopeAtTerminal(t, 80, withTarget(ts, "call", "--raw", "--output", file, "tools/call", tinyImage)...)
	r.mustExit(t, ExitOK)
	got, err := os.ReadFile(file)
	if err != nil || string(got) != string(img) {
		t.Fatalf("%s holds %d bytes, want the %d of the image: %v", file, len(got), len(img), err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("%s: %v, %v; want mode 0644", file, fi.Mode(), err)
	}
	if r.stdout != "" || !strings.Contains(r.stderr, "saved "+itoa(len(img))+" bytes to "+file+"\n") {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want the result alone: %v", len(entries), entries)
	}

	r = mcpscope(t, withTarget(ts, "call", "--raw", "tools/call", tinyImage)...)
	r.mustExit(t, ExitOK)
	if r.stdout != string(img) {
		t.Errorf("piped --raw wrote %d bytes, want the %d of the image", len(r.stdout), len(img))
	}

	r = mcpscopeAtTerminal(t, 80, "call", "--raw", "tools/call", tinyImage, "--", filepath.Join(t.TempDir(), "never-started"))
	r.mustExit(t, ExitUsage)
	if r.stderr != "error: --raw writes binary bytes a terminal would garble: add --output FILE, or redirect stdout\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// --output FILE saves the result's JSON, as piped; --format text saves
// the text.
func TestOutputFileTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	dir := t.TempDir()
	file := filepath.Join(dir, "prompts.json")
	r := mcpscopeAtTerminal(t, 80, withTarget(ts, "prompts", "--output", file)...)
	r.mustExit(t, ExitOK)
	got, err := os.ReadFile(file)
	if err != nil || !json.Valid(got) || !strings.HasPrefix(string(got), `{"prompts":[{"name":"simple-prompt"`) || strings.Count(string(got), "\n") != 1 {
		t.Fatalf("%s: %v\n%s", file, err, got)
	}
	if r.stdout != "" || r.stderr != "saved "+itoa(len(got))+" bytes to "+file+"\n" {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}

	r = mcpscope(t, withTarget(ts, "prompts", "--format", "text", "--output", file)...)
	r.mustExit(t, ExitOK)
	got, _ = os.ReadFile(file)
	if !regexp.MustCompile(`(?m)^args-prompt +Arguments Prompt +city\* state +A prompt with two arguments, one required and one optional$`).Match(got) {
		t.Errorf("--format text --output saved:\n%s", got)
	}

	r = mcpscope(t, withTarget(ts, "prompts", "--output", filepath.Join(dir, "missing", "p.json"))...)
	r.mustExit(t, ExitUsage)
}

// Against the Go SDK's conformance server at a terminal: images, audio
// and embedded resources one line each, an isError result prefixed with
// "error:" (exit 1); --raw of a result with two contents it could write
// is refused, naming them.
func TestOutputContentConformance(t *testing.T) {
	t.Parallel()
	srv := []string{peertest.GoSDKConformance(t)}
	call := func(tool string, args ...string) result {
		return mcpscopeAtTerminal(t, 80, withTarget(srv, append(append([]string{"call"}, args...), "tools/call", `{"name":"`+tool+`"}`)...)...)
	}
	r := call("test_multiple_content_types")
	r.mustExit(t, ExitOK)
	checkLines(t, r, "This is text content", "[image image/png 1×1 70 B]", "[resource test://embedded-in-multiple text/plain]",
		"This is an embedded resource")
	r = call("test_audio_content")
	r.mustExit(t, ExitOK)
	checkLines(t, r, "[audio audio/wav 0.00 s 44 B]") // a header with no samples
	r = call("test_error_handling")
	r.mustExit(t, ExitRPCError)
	checkLines(t, r, "error: this tool intentionally returns an error for testing")
	r = call("test_multiple_content_types", "--raw", "--output", filepath.Join(t.TempDir(), "x"))
	r.mustExit(t, ExitUsage)
	if want := "error: --raw: the result holds 2 contents --raw could write, not one: 1 image, 1 text resource (and 1 text content)\n"; r.stderr != want {
		t.Errorf("stderr %q\nwant   %q", r.stderr, want)
	}
}

// The mark3labs server's tools and the demo's resources as tables, and
// the demo's inline tone as the WAV bytes it sends.
func TestOutputMark3labsAndDemo(t *testing.T) {
	t.Parallel()
	r := mcpscopeAtTerminal(t, 120, withTarget(peertest.Mark3labsEverything(t), "tools")...)
	r.mustExit(t, ExitOK)
	checkFits(t, r.stdout, 120)
	if !regexp.MustCompile(`(?m)^NAME +DESCRIPTION\n`).MatchString(r.stdout) || !regexp.MustCompile(`(?m)^add +Adds two numbers$`).MatchString(r.stdout) {
		t.Errorf("mark3labs tools:\n%s", r.stdout)
	}

	r = mcpscopeAtTerminal(t, 140, append([]string{"resources"}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	checkFits(t, r.stdout, 140)
	for _, want := range []string{`(?m)^URI +NAME +MIME +DESCRIPTION$`, `(?m)^template://readme/go/cli +Go CLI README +text/markdown +README for a Go command-line tool$`,
		`(?m)^URI TEMPLATE +NAME +DESCRIPTION$`} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("the demo's resources do not match %s:\n%s", want, r.stdout)
		}
	}

	tone := `{"name":"tone","arguments":{"duration_ms":50}}`
	piped := mcpscope(t, append([]string{"call", "tools/call", tone}, demoServer(t)...)...)
	piped.mustExit(t, ExitOK)
	var res struct{ Content []struct{ Type, Data string } }
	if err := json.Unmarshal([]byte(piped.stdout), &res); err != nil || len(res.Content) != 2 || res.Content[1].Type != "audio" {
		t.Fatalf("tone: %v\n%s", err, piped.stdout)
	}
	wav, _ := base64.StdEncoding.DecodeString(res.Content[1].Data)
	r = mcpscope(t, append([]string{"call", "--raw", "tools/call", tone}, demoServer(t)...)...)
	r.mustExit(t, ExitOK)
	if r.stdout != string(wav) || !strings.HasPrefix(r.stdout, "RIFF") {
		t.Errorf("--raw wrote %d bytes, want the %d of the WAV clip", len(r.stdout), len(wav))
	}
}

// A prompts/get result prints as "role: text" lines and a resources/read
// of a text resource as its text, against the TypeScript reference.
func TestOutputPromptAndReadTS(t *testing.T) {
	t.Parallel()
	ts := peertest.TSEverything(t, "stdio")
	r := mcpscopeAtTerminal(t, 80, withTarget(ts, "call", "prompts/get", `{"name":"args-prompt","arguments":{"city":"Oslo","state":"Viken"}}`)...)
	r.mustExit(t, ExitOK)
	checkLines(t, r, "user: What's weather in Oslo, Viken?")
	r = mcpscopeAtTerminal(t, 80, withTarget(ts, "call", "resources/read", `{"uri":"demo://resource/dynamic/text/1"}`)...)
	r.mustExit(t, ExitOK)
	if !regexp.MustCompile(`^Resource 1: This is a plaintext resource created at [^\n]+\n$`).MatchString(r.stdout) {
		t.Errorf("resources/read at a terminal:\n%s", r.stdout)
	}
}
