package skills

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// nameRule is the extension's rule for a skill name: lowercase letters,
// digits and hyphens, 1 to 64 of them, no hyphen first or last (and no
// two in a row, checked apart); it and digestRule compile on first use.
var nameRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`) })

// digestRule is the shape of a file digest.
var digestRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^sha256:[0-9a-f]{64}$`) })

// NameProblem says why name is no valid skill name, or "".
func NameProblem(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case !nameRule().MatchString(name) || strings.Contains(name, "--"):
		return fmt.Sprintf("the name %q breaks the rule: 1 to 64 of a-z, 0-9 and -, no - first, last or twice in a row", name)
	}
	return ""
}

// Dir returns the skill directory of a SKILL.md URI (skill://a/b/SKILL.md
// → skill://a/b), or "" when uri names no SKILL.md under skill://.
func Dir(uri string) string {
	prefix := mcp.SkillScheme + "://"
	if !strings.HasPrefix(uri, prefix) || !strings.HasSuffix(uri, "/"+mcp.SkillManifest) {
		return ""
	}
	dir := strings.TrimSuffix(uri, "/"+mcp.SkillManifest)
	if len(dir) <= len(prefix) {
		return ""
	}
	return dir
}

// entryFailure is what is wrong with an entry before any file is read.
type entryFailure struct {
	file, reason string
}

// checkEntry checks an entry as listed: its URI, name, and the shape and
// bounds of its files. It returns the SKILL.md file of the entry.
func checkEntry(s mcp.Skill) (mcp.SkillFile, *entryFailure) {
	dir := Dir(s.URI)
	if dir == "" {
		return mcp.SkillFile{}, &entryFailure{s.URI, "the skill's uri is not skill://…/SKILL.md"}
	}
	manifestPath, err := uriPath(s.URI)
	if err != nil {
		return mcp.SkillFile{}, &entryFailure{s.URI, "the skill's uri is refused: " + err.Error()}
	}
	dirPath := strings.TrimSuffix(manifestPath, "/"+mcp.SkillManifest)
	fm := s.Named()
	if p := NameProblem(fm.Name); p != "" {
		return mcp.SkillFile{}, &entryFailure{s.URI, "frontmatter: " + p}
	}
	if strings.TrimSpace(fm.Description) == "" {
		return mcp.SkillFile{}, &entryFailure{s.URI, "frontmatter: the description is empty"}
	}
	if last := dir[strings.LastIndex(dir, "/")+1:]; last != fm.Name {
		return mcp.SkillFile{}, &entryFailure{s.URI, fmt.Sprintf("the directory %q is not named after the skill %q", last, fm.Name)}
	}
	files := s.Resources.Files
	if len(files) > MaxEntries {
		return mcp.SkillFile{}, &entryFailure{s.URI, fmt.Sprintf("%d files listed, more than %d", len(files), MaxEntries)}
	}
	var manifest *mcp.SkillFile
	var total int64
	seen := make(map[string]bool, len(files))
	for i := range files {
		f := files[i]
		switch outside := insideProblem(dirPath, f.URI); {
		case outside != "":
			return mcp.SkillFile{}, &entryFailure{f.URI, outside}
		case seen[f.URI]:
			return mcp.SkillFile{}, &entryFailure{f.URI, "the file is listed twice"}
		case !digestRule().MatchString(f.Digest):
			return mcp.SkillFile{}, &entryFailure{f.URI, fmt.Sprintf("the digest %q is not sha256: and 64 lowercase hex digits", f.Digest)}
		case f.Size == nil || *f.Size < 0:
			return mcp.SkillFile{}, &entryFailure{f.URI, "the file has no size"}
		}
		seen[f.URI] = true
		total += *f.Size
		if f.URI == s.URI {
			manifest = &files[i]
		}
	}
	if total > MaxSkillBytes {
		return mcp.SkillFile{}, &entryFailure{s.URI, fmt.Sprintf("the files add up to %d bytes, more than %d", total, MaxSkillBytes)}
	}
	if manifest == nil {
		return mcp.SkillFile{}, &entryFailure{s.URI, "the skill's resources do not list its own SKILL.md"}
	}
	return *manifest, nil
}
