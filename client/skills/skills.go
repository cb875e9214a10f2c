// Package skills drives the Skills extension (SEP-2640) over a session:
// it lists a server's skills (every page), gets one, lists a skill's
// directory, reads a file and verifies a skill against its entry. It reads
// no file of a skill unless asked: listing reads none, and verification
// reads SKILL.md first and the other files only when SKILL.md passes.
package skills

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Bounds of one skill, as the extension sets them.
const (
	// MaxEntries is the most files one skill may list.
	MaxEntries = 512
	// MaxSkillBytes is the most bytes the files of one skill may hold.
	MaxSkillBytes = 16 << 20
	// DefaultMaxFile bounds one file read when Limits.MaxFile is zero.
	DefaultMaxFile = 16 << 20
)

// Session is what the package needs of a session (*client.Session has it).
type Session interface {
	Call(ctx context.Context, method string, params any, opts ...client.CallOption) (json.RawMessage, error)
	ListAll(ctx context.Context, method, field string, params any, opts ...client.CallOption) ([]json.RawMessage, error)
}

// Client reads skills through a session.
type Client struct {
	Session Session
	// Options go with every request (timeouts, _meta).
	Options []client.CallOption
	// MaxFile bounds the bytes of one file read (DefaultMaxFile when 0):
	// a file past it is not verified.
	MaxFile int64
}

// Listed is one skills/list entry: decoded, and as the server sent it.
// Err says why the entry is not a skill (a *client.ProtocolError), or is
// nil; Skill then holds only the uri, when the entry had one.
type Listed struct {
	Skill mcp.Skill
	Raw   json.RawMessage
	Err   error
}

// List calls skills/list for every page. An entry that does not decode as
// a skill is kept, with Err naming its index: one bad entry loses none of
// the others. The error is the session's (a transport error, a refusal).
func (c *Client) List(ctx context.Context) ([]Listed, error) {
	raw, err := c.Session.ListAll(ctx, mcp.MethodSkillsList, "skills", nil, c.Options...)
	if err != nil {
		return nil, err
	}
	out := make([]Listed, 0, len(raw))
	for i, r := range raw {
		var s mcp.Skill
		if err := json.Unmarshal(r, &s); err != nil || s.URI == "" {
			if err == nil {
				err = fmt.Errorf(`no "uri"`)
			}
			var named struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(r, &named)
			out = append(out, Listed{Skill: mcp.Skill{URI: named.URI}, Raw: r,
				Err: &client.ProtocolError{Msg: fmt.Sprintf("skills[%d] from %s is not a skill", i, mcp.MethodSkillsList), Err: err}})
			continue
		}
		out = append(out, Listed{Skill: s, Raw: r})
	}
	return out, nil
}

// Malformed is the error of the first entry of listed that is not a
// skill, saying how many more there are, or nil.
func Malformed(listed []Listed) error {
	var first error
	n := 0
	for _, l := range listed {
		if l.Err != nil {
			if n++; first == nil {
				first = l.Err
			}
		}
	}
	if n > 1 {
		return fmt.Errorf("%w (and %d more entries that are not skills)", first, n-1)
	}
	return first
}

// Get calls skills/get for the skill whose SKILL.md is uri. A skill of
// another uri in the answer is a protocol violation.
func (c *Client) Get(ctx context.Context, uri string) (mcp.Skill, error) {
	res, err := c.Session.Call(ctx, mcp.MethodSkillsGet, mcp.GetSkillParams{URI: uri}, c.Options...)
	if err != nil {
		return mcp.Skill{}, err
	}
	var r mcp.GetSkillResult
	if err := json.Unmarshal(res, &r); err != nil || r.Skill.URI == "" {
		if err == nil {
			err = fmt.Errorf(`no "skill" with a "uri"`)
		}
		return mcp.Skill{}, &client.ProtocolError{Msg: mcp.MethodSkillsGet + " answered no skill", Err: err}
	}
	if r.Skill.URI != uri {
		return mcp.Skill{}, &client.ProtocolError{Msg: fmt.Sprintf("%s of %s answered the skill %s",
			mcp.MethodSkillsGet, termtext.Quote(uri), termtext.Quote(r.Skill.URI))}
	}
	return r.Skill, nil
}

// ReadDirectory calls resources/directory/read for every page of the
// directory uri (skill://NAME, or a subdirectory).
func (c *Client) ReadDirectory(ctx context.Context, uri string) ([]mcp.DirectoryEntry, error) {
	raw, err := c.Session.ListAll(ctx, mcp.MethodResourcesDirectoryRead, "resources", mcp.DirectoryReadParams{URI: uri}, c.Options...)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.DirectoryEntry, 0, len(raw))
	for i, r := range raw {
		var e mcp.DirectoryEntry
		if err := json.Unmarshal(r, &e); err != nil || e.URI == "" {
			if err == nil {
				err = fmt.Errorf(`no "uri"`)
			}
			return nil, &client.ProtocolError{Msg: fmt.Sprintf("resources[%d] from %s is not an entry", i, mcp.MethodResourcesDirectoryRead), Err: err}
		}
		out = append(out, e)
	}
	return out, nil
}

// File is one file read with resources/read: its exact bytes (the UTF-8
// of a text, the decoded bytes of a blob) and its mimeType.
type File struct {
	URI      string
	MimeType string
	Bytes    []byte
	Text     bool // the server sent text (else a blob)
}

// ReadFile reads uri with resources/read: the first content of that uri.
// A file over MaxFile is an error; nothing past it is kept.
func (c *Client) ReadFile(ctx context.Context, uri string) (File, error) {
	res, err := c.Session.Call(ctx, mcp.MethodResourcesRead, mcp.ReadResourceParams{URI: uri}, c.Options...)
	if err != nil {
		return File{}, err
	}
	var r struct {
		Contents []struct {
			URI      string  `json:"uri"`
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Blob     *string `json:"blob"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return File{}, &client.ProtocolError{Msg: mcp.MethodResourcesRead + " of " + uri + " is no read result", Err: err}
	}
	for _, ct := range r.Contents {
		if ct.URI != "" && ct.URI != uri && len(r.Contents) > 1 {
			continue
		}
		f := File{URI: uri, MimeType: ct.MimeType}
		switch {
		case ct.Text != nil:
			f.Bytes, f.Text = []byte(*ct.Text), true
		case ct.Blob != nil:
			if int64(base64.StdEncoding.DecodedLen(len(*ct.Blob))) > c.maxFile()+3 {
				return File{}, &TooLargeError{URI: uri, Max: c.maxFile()}
			}
			b, err := base64.StdEncoding.DecodeString(*ct.Blob)
			if err != nil {
				return File{}, &client.ProtocolError{Msg: mcp.MethodResourcesRead + " of " + uri + " has a blob that is not base64", Err: err}
			}
			f.Bytes = b
		default:
			return File{}, &client.ProtocolError{Msg: mcp.MethodResourcesRead + " of " + uri + " has neither text nor blob"}
		}
		if int64(len(f.Bytes)) > c.maxFile() {
			return File{}, &TooLargeError{URI: uri, Max: c.maxFile()}
		}
		return f, nil
	}
	return File{}, &client.ProtocolError{Msg: mcp.MethodResourcesRead + " of " + uri + " returned no contents"}
}

// maxFile is the bound of one file read.
func (c *Client) maxFile() int64 {
	if c.MaxFile > 0 {
		return c.MaxFile
	}
	return DefaultMaxFile
}

// TooLargeError is a file larger than the client reads.
type TooLargeError struct {
	URI string
	Max int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes, the most read of one file", e.URI, e.Max)
}

// Advertised reports whether a server's capabilities declare the
// extension (capabilities.extensions["io.modelcontextprotocol/skills"]).
func Advertised(caps json.RawMessage) bool {
	var c mcp.ServerCapabilities
	if json.Unmarshal(caps, &c) != nil {
		return false
	}
	v, ok := c.Extensions[mcp.ExtensionSkills]
	return ok && string(v) != "null"
}

// IsText reports whether b can be shown as text.
func IsText(b []byte) bool { return utf8.Valid(b) }
