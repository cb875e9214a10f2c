package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The Skills extension (SEP-2640): a server offers skills, each a
// directory of files under skill://NAME/ whose SKILL.md starts with YAML
// front matter. skills/list and skills/get describe them (the files'
// digests and sizes included), resources/read reads a file and
// resources/directory/read lists a skill's directory.
const (
	// ExtensionSkills is the extension's id in capabilities.extensions.
	ExtensionSkills = "io.modelcontextprotocol/skills"

	MethodSkillsList             = "skills/list"
	MethodSkillsGet              = "skills/get"
	MethodResourcesDirectoryRead = "resources/directory/read"

	// SkillScheme is the URI scheme of a skill's files.
	SkillScheme = "skill"
	// SkillManifest is the file name every skill has: its instructions,
	// behind YAML front matter.
	SkillManifest = "SKILL.md"
	// SkillResourcesDynamic is the value of a skill's resources when the
	// server does not list its files (nothing to verify them against).
	SkillResourcesDynamic = "dynamic"
	// MimeDirectory is the mimeType of a subdirectory in
	// resources/directory/read.
	MimeDirectory = "inode/directory"
	// MetaReservedPrefix starts the front-matter metadata keys the
	// protocol reserves.
	MetaReservedPrefix = "io.modelcontextprotocol/"
)

// SkillsSettings are the settings of the extension a server declares
// (capabilities.extensions["io.modelcontextprotocol/skills"]).
type SkillsSettings struct {
	// DirectoryRead says the server answers resources/directory/read.
	DirectoryRead bool `json:"directoryRead,omitempty"`
}

// SkillFile is one file of a skill as skills/list describes it: its URI,
// "sha256:HEX" of its exact bytes, and its size in bytes (nil when the
// entry has none, which the extension forbids).
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest,omitempty"`
	Size   *int64 `json:"size,omitempty"`
}

// SkillResources are a skill's files: a list, or "dynamic" when the
// server does not enumerate them.
type SkillResources struct {
	Dynamic bool
	Files   []SkillFile
}

// UnmarshalJSON accepts an array of files or the string "dynamic".
func (r *SkillResources) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s != SkillResourcesDynamic {
			return errors.New(`skill resources: a string other than "dynamic": ` + s)
		}
		*r = SkillResources{Dynamic: true}
		return nil
	}
	var files []SkillFile
	if err := json.Unmarshal(b, &files); err != nil {
		return err
	}
	*r = SkillResources{Files: files}
	return nil
}

// MarshalJSON writes "dynamic" or the array of files.
func (r SkillResources) MarshalJSON() ([]byte, error) {
	if r.Dynamic {
		return json.Marshal(SkillResourcesDynamic)
	}
	if r.Files == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(r.Files)
}

// Skill is one entry of skills/list: the URI of its SKILL.md, the front
// matter the server says that file starts with, and its files.
type Skill struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	Resources   SkillResources  `json:"resources"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// SkillFrontmatter holds the two front-matter fields every skill has.
type SkillFrontmatter struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Named returns the name and description of the entry's front matter
// (empty when the front matter is no object or lacks them).
func (s Skill) Named() SkillFrontmatter {
	var fm SkillFrontmatter
	_ = json.Unmarshal(s.Frontmatter, &fm)
	return fm
}

// ListSkillsParams are the params of skills/list.
type ListSkillsParams struct {
	Cursor string `json:"cursor,omitempty"`
}

// ListSkillsResult is the answer to skills/list; an entry is never split
// across pages.
type ListSkillsResult struct {
	Skills     []Skill         `json:"skills"`
	NextCursor string          `json:"nextCursor,omitempty"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
	ResultType string          `json:"resultType,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// GetSkillParams are the params of skills/get: the URI of the skill's
// SKILL.md.
type GetSkillParams struct {
	URI string `json:"uri"`
}

// GetSkillResult is the answer to skills/get.
type GetSkillResult struct {
	Skill      Skill           `json:"skill"`
	TTLMs      *int64          `json:"ttlMs,omitempty"`
	CacheScope string          `json:"cacheScope,omitempty"`
	ResultType string          `json:"resultType,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// DirectoryReadParams are the params of resources/directory/read: a
// skill's directory (skill://NAME or a subdirectory of it).
type DirectoryReadParams struct {
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitempty"`
}

// DirectoryEntry is one entry of a directory: a file, or a subdirectory
// when its mimeType is inode/directory.
type DirectoryEntry struct {
	URI      string `json:"uri"`
	Name     string `json:"name,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// IsDirectory reports whether the entry is a subdirectory.
func (e DirectoryEntry) IsDirectory() bool { return e.MimeType == MimeDirectory }

// DirectoryReadResult is the answer to resources/directory/read.
type DirectoryReadResult struct {
	Resources  []DirectoryEntry `json:"resources"`
	NextCursor string           `json:"nextCursor,omitempty"`
	ResultType string           `json:"resultType,omitempty"`
	Meta       json.RawMessage  `json:"_meta,omitempty"`
}
