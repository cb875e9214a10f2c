package skills

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Outcome is how the verification of one skill ended.
type Outcome string

// The outcomes of a verification, from best to worst for exit codes.
const (
	// Verified: every listed file was read and matched its entry.
	Verified Outcome = "verified"
	// Unverifiable: the skill's resources are "dynamic": nothing to check.
	Unverifiable Outcome = "unverifiable"
	// Incomplete: a file could not be read (refused, too large); what was
	// read matched.
	Incomplete Outcome = "incomplete"
	// Failed: the entry or a file contradicts the rules or the entry.
	Failed Outcome = "failed"
)

// File states in a report.
const (
	FileVerified = "verified"
	FileFailed   = "failed"
	FileUnread   = "unread"     // not read: the skill failed before it
	FileNotRead  = "unreadable" // the read did not give the file
)

// FileReport is what verification found of one listed file.
type FileReport struct {
	URI    string `json:"uri"`
	Size   *int64 `json:"size,omitempty"`
	Digest string `json:"digest,omitempty"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// Report is the verification of one skill. File names the file that
// failed or could not be read, when one did.
type Report struct {
	URI     string       `json:"uri"`
	Name    string       `json:"name"`
	Outcome Outcome      `json:"outcome"`
	Reason  string       `json:"reason,omitempty"`
	File    string       `json:"file,omitempty"`
	Files   []FileReport `json:"files"`
}

// Verify checks a skill against its entry: the entry's own shape first,
// then SKILL.md (size, digest, front matter), and, only if it passes, the
// other files in the order listed. A skill that fails is read no further.
// The error is non-nil only when the session itself failed (a transport
// error, a timeout, the context's end); the report then says how far it got.
func (c *Client) Verify(ctx context.Context, s mcp.Skill) (Report, error) {
	r := Report{URI: s.URI, Name: s.Named().Name, Files: []FileReport{}}
	if s.Resources.Dynamic {
		r.Outcome, r.Reason = Unverifiable, `the server lists the skill's files as "dynamic": no digests to check`
		return r, nil
	}
	for _, f := range s.Resources.Files {
		r.Files = append(r.Files, FileReport{URI: f.URI, Size: f.Size, Digest: f.Digest, State: FileUnread})
	}
	manifest, bad := checkEntry(s)
	if bad != nil {
		r.Outcome, r.Reason, r.File = Failed, bad.reason, bad.file
		return r, nil
	}
	order := []mcp.SkillFile{manifest}
	for _, f := range s.Resources.Files {
		if f.URI != manifest.URI {
			order = append(order, f)
		}
	}
	var read int64
	r.Outcome = Verified
	for i, f := range order {
		file, err := c.ReadFile(ctx, f.URI)
		if err == nil && read+int64(len(file.Bytes)) > MaxSkillBytes {
			err = &TooLargeError{URI: f.URI, Max: MaxSkillBytes - read}
		}
		if err != nil {
			outcome, state := Incomplete, FileNotRead
			var pe *client.ProtocolError
			if errors.As(err, &pe) {
				outcome, state = Failed, FileFailed
			}
			r.mark(f.URI, state, err.Error())
			r.Outcome, r.Reason, r.File = outcome, err.Error(), f.URI
			if outcome == Failed || i == 0 || !readRefused(err) {
				return r, sessionErr(err)
			}
			continue // another file may still be read and checked
		}
		read += int64(len(file.Bytes))
		problem := fileProblem(f, file.Bytes)
		if problem == "" && i == 0 {
			parsed, err := ParseFrontmatter(file.Bytes)
			if err != nil {
				problem = err.Error()
			} else {
				problem = frontmatterProblem(parsed, s.Frontmatter)
			}
		}
		if problem != "" {
			r.mark(f.URI, FileFailed, problem)
			r.Outcome, r.Reason, r.File = Failed, problem, f.URI
			return r, nil
		}
		r.mark(f.URI, FileVerified, "")
	}
	return r, nil
}

// fileProblem compares a file's bytes with its entry: size first, then
// the digest.
func fileProblem(f mcp.SkillFile, b []byte) string {
	if int64(len(b)) != *f.Size {
		return fmt.Sprintf("%d bytes read where the entry says %d", len(b), *f.Size)
	}
	sum := sha256.Sum256(b)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != f.Digest {
		return fmt.Sprintf("the digest of the bytes read is %s, the entry says %s", got, f.Digest)
	}
	return ""
}

// mark sets the state of one file of the report.
func (r *Report) mark(uri, state, reason string) {
	for i := range r.Files {
		if r.Files[i].URI == uri {
			r.Files[i].State, r.Files[i].Reason = state, reason
			return
		}
	}
}

// readRefused reports whether a read failed with an answer of the server
// (an error response) or for its size: the session goes on.
func readRefused(err error) bool {
	var rpc *client.RPCError
	var big *TooLargeError
	return errors.As(err, &rpc) || errors.As(err, &big)
}

// sessionErr is err when the session itself failed, else nil.
func sessionErr(err error) error {
	var pe *client.ProtocolError
	if readRefused(err) || errors.As(err, &pe) {
		return nil
	}
	return err
}
