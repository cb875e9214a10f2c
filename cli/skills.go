package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client/skills"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// skillsFlags are the flags of the skills command beside the shared ones.
type skillsFlags struct {
	verify bool
	skill  string
}

// newSkillsCommand builds `mcpscope skills [--verify] [--skill NAME] TARGET`.
func newSkillsCommand() *cobra.Command {
	f := &runFlags{}
	sf := &skillsFlags{}
	cmd := &cobra.Command{
		Use:   "skills [flags] TARGET",
		Short: "List the server's skills (the Skills extension, all pages); --verify checks them",
		Long: "List the server's skills (the Skills extension): as a table at a terminal, as one JSON\n" +
			"object when piped or with --format json. Listing reads no file of a skill.\n\n" +
			"--verify reads each skill's SKILL.md and checks its size, digest and front matter\n" +
			"against the skill's entry, then, only if SKILL.md passes, the other files; a skill\n" +
			"that fails is read no further. Each skill is verified, failed, incomplete (a file\n" +
			"could not be read) or unverifiable (the server lists its files as \"dynamic\").\n" +
			"Exit 1 when a skill failed or is incomplete.\n\n" +
			"--skill NAME (or its skill://…/SKILL.md URI) picks one skill: its files, or with\n" +
			"--verify its verification. mcpscope read URI TARGET reads one file.",
		Example: "  mcpscope skills http://127.0.0.1:8080/mcp\n" +
			"  mcpscope skills --verify -- mcpscope serve --stdio\n" +
			"  mcpscope skills --verify --skill release-notes --format json http://127.0.0.1:8080/mcp",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := f.onlyTarget(cmd, args)
			if err != nil {
				return err
			}
			return f.execute(cmd.Context(), target, streamsOf(cmd), func(ctx context.Context, r *run) error {
				return r.skills(ctx, sf)
			})
		},
	}
	cmd.Flags().BoolVar(&sf.verify, "verify", false, "verify each skill's files against its entry (digests, sizes, front matter)")
	cmd.Flags().StringVar(&sf.skill, "skill", "", "only the skill named `NAME` (or the skill://…/SKILL.md URI)")
	f.register(cmd.Flags())
	return cmd
}

// skillsClient is a skills client over the run's session; one file read
// is bounded as a frame from the server is.
func (r *run) skillsClient() *skills.Client {
	return &skills.Client{Session: r.session, Options: r.requestOptions(), MaxFile: int64(r.flags.maxFrameSize)}
}

// skills lists, shows or verifies the server's skills.
func (r *run) skills(ctx context.Context, sf *skillsFlags) error {
	if !skills.Advertised(r.session.ServerCapabilities()) {
		r.io.diag.Println("warning: the server does not advertise the " + mcp.ExtensionSkills + " extension; asking anyway")
	}
	c := r.skillsClient()
	listed, err := r.pickSkills(ctx, c, sf.skill)
	if err != nil {
		return err
	}
	if !sf.verify {
		raws := make([]json.RawMessage, len(listed))
		for i, l := range listed {
			raws[i] = l.Raw
		}
		if sf.skill != "" && len(listed) == 1 {
			return r.printResult("", listed[0].Raw, func(width int, _ bool) string { return skillFilesText(listed[0].Skill, width) })
		}
		if err := r.emitListing(ctx, []string{"skills"}, [][]json.RawMessage{raws}); err != nil {
			return err
		}
		return skills.Malformed(listed)
	}
	reports := make([]skills.Report, 0, len(listed))
	var sessionErr error
	for _, l := range listed {
		if l.Err != nil {
			reports = append(reports, skills.Report{URI: l.Skill.URI, Outcome: skills.Failed, Reason: l.Err.Error(), Files: []skills.FileReport{}})
			continue
		}
		rep, err := c.Verify(ctx, l.Skill)
		reports = append(reports, rep)
		if err != nil {
			sessionErr = err
			break
		}
	}
	doc, err := json.Marshal(map[string]any{"skills": reports})
	if err != nil {
		return err
	}
	if err := r.printResult("", doc, func(width int, _ bool) string { return verifyText(reports, width) }); err != nil {
		return err
	}
	if sessionErr != nil {
		return sessionErr
	}
	if err := skills.Malformed(listed); err != nil {
		return err
	}
	return verifyExit(reports)
}

// pickSkills lists every skill, or finds the one --skill names: by its
// SKILL.md URI with skills/get, by name in the listing.
func (r *run) pickSkills(ctx context.Context, c *skills.Client, want string) ([]skills.Listed, error) {
	if strings.HasPrefix(want, mcp.SkillScheme+"://") {
		s, err := c.Get(ctx, want)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(s)
		return []skills.Listed{{Skill: s, Raw: raw}}, err
	}
	listed, err := c.List(ctx)
	if err != nil || want == "" {
		return listed, err
	}
	var names []string
	for _, l := range listed {
		if l.Err != nil {
			continue
		}
		if n := l.Skill.Named().Name; n == want {
			return []skills.Listed{l}, nil
		} else if len(names) < 20 {
			names = append(names, termtext.OneLine(n))
		}
	}
	if len(names) == 0 {
		return nil, usagef("--skill %s: the server lists no skills", termtext.Quote(want))
	}
	return nil, usagef("--skill %s: the server lists no skill of that name; it has %s", termtext.Quote(want), strings.Join(names, ", "))
}

// verifyExit is the exit of a verification: 1 (the server's answers are
// wrong or refused) when a skill failed or is incomplete.
func verifyExit(reports []skills.Report) error {
	var failed, incomplete int
	for _, rep := range reports {
		switch rep.Outcome {
		case skills.Failed:
			failed++
		case skills.Incomplete:
			incomplete++
		}
	}
	if failed+incomplete == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %s failed verification", failed, plural.Count(len(reports), "skill", "skills"))
	if incomplete > 0 {
		msg += fmt.Sprintf(", %d could not be read whole", incomplete)
	}
	return withExit(ExitRPCError, errors.New(msg))
}
