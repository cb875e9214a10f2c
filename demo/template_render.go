package demo

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"text/template"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// validateParams checks parameters against a template's declarations and
// returns one sentence per problem, plus the values with defaults filled.
func (t *projectTemplate) validateParams(params map[string]any) (map[string]any, []string) {
	values := make(map[string]any, len(t.Params))
	var problems []string
	for _, p := range t.Params {
		v, ok := params[p.Name]
		if !ok || v == nil {
			if p.Required {
				problems = append(problems, fmt.Sprintf("%s is required", p.Name))
			}
			values[p.Name] = p.Default
			continue
		}
		if msg := checkParam(p, v); msg != "" {
			problems = append(problems, msg)
			continue
		}
		values[p.Name] = v
	}
	return values, problems
}

// checkParam returns what is wrong with one value, or "".
func checkParam(p templateParam, v any) string {
	switch p.Type {
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s must be a boolean", p.Name)
		}
	case "integer":
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			return fmt.Sprintf("%s must be an integer", p.Name)
		}
	default:
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("%s must be a string", p.Name)
		}
		if p.Pattern != "" && !regexp.MustCompile(p.Pattern).MatchString(s) {
			return fmt.Sprintf("%s %q does not match %s", p.Name, s, p.Pattern)
		}
	}
	return ""
}

// render validates the parameters and fills the template: -32002 when they
// do not validate.
func (t *projectTemplate) render(params map[string]any) (string, error) {
	values, problems := t.validateParams(params)
	if len(problems) > 0 {
		return "", rpcError(mcp.CodeParameterValidationFailed,
			map[string]any{"uri": t.URI, "errors": problems},
			"Parameter validation failed: %s", strings.Join(problems, "; "))
	}
	tpl, err := template.New(t.URI).Option("missingkey=zero").Parse(t.Body)
	if err != nil {
		return "", fmt.Errorf("template %s does not parse: %w", t.URI, err)
	}
	var out strings.Builder
	if err := tpl.Execute(&out, values); err != nil {
		return "", fmt.Errorf("template %s does not render: %w", t.URI, err)
	}
	return out.String(), nil
}

// templateArgs are the arguments of generate_template and validate_template.
type templateArgs struct {
	URI        string         `json:"resource_uri"`
	Parameters map[string]any `json:"parameters"`
}

// decodeTemplateArgs decodes and resolves the template of the arguments.
func decodeTemplateArgs(c *Call) (*projectTemplate, map[string]any, error) {
	var a templateArgs
	if err := decodeArgs(c, &a); err != nil {
		return nil, nil, err
	}
	t, err := findTemplate(a.URI)
	if err != nil {
		return nil, nil, err
	}
	return t, a.Parameters, nil
}

// summary is the listing form of a template.
func (t *projectTemplate) summary() map[string]any {
	return map[string]any{"uri": t.URI, "name": t.Name, "description": t.Description,
		"toolchain": t.Toolchain, "category": t.Category, "mimeType": t.MimeType}
}
