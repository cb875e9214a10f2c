package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// emailPattern is a plain form check of an address: name@host.tld.
const emailPattern = `^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$`

// builtinWizards are the wizard tools of the issue-5 contract.
func builtinWizards() []*wizard {
	trip := bookTrip()
	stateless := *trip
	stateless.Tool, stateless.Stateless = "book_trip_stateless", true
	return []*wizard{trip, &stateless, registerUser(), uploadReport()}
}

// num is a pointer to a bound of PromptValidation.
func num(f float64) *float64 { return &f }

// choice is one option of a choice prompt.
func choice(value, label string) mcp.PromptChoiceItem {
	v, _ := json.Marshal(value)
	return mcp.PromptChoiceItem{Value: v, Label: label}
}

// text decodes a kept string answer ("" when it is none).
func text(data map[string]json.RawMessage, key string) string {
	var s string
	_ = json.Unmarshal(data[key], &s)
	return s
}

// reference is a short stable reference derived from the answers.
func reference(prefix string, data map[string]json.RawMessage) string {
	b, _ := json.Marshal(data)
	sum := sha256.Sum256(b)
	return prefix + strings.ToUpper(hex.EncodeToString(sum[:3]))
}

// bookTrip: destination → class → date (after today) → travellers →
// confirm; declining the confirmation books nothing.
func bookTrip() *wizard {
	return &wizard{Tool: "book_trip", Description: "book a trip: destination, class, date, travellers, confirmation",
		Steps: []wizardStep{
			{Key: "destination", Hint: "Use letters and spaces, 2 to 40 characters, e.g. Oslo", Prompt: mcp.InteractionPrompt{
				Type: mcp.PromptText, Message: "Where do you want to go?", Placeholder: "Oslo",
				Validation: &mcp.PromptValidation{Required: true, Pattern: `^[A-Za-z ]+$`, Min: num(2), Max: num(40)}}},
			{Key: "class", Prompt: mcp.InteractionPrompt{Type: mcp.PromptChoice, Message: "Which class?",
				Choices:    []mcp.PromptChoiceItem{choice("economy", "Economy"), choice("premium", "Premium economy"), choice("business", "Business")},
				Validation: &mcp.PromptValidation{Required: true}}},
			{Key: "date", Check: afterToday, Adjust: func(p *mcp.InteractionPrompt, _ map[string]json.RawMessage, now time.Time) {
				p.Placeholder = now.UTC().AddDate(0, 0, 1).Format(time.DateOnly)
			}, Prompt: mcp.InteractionPrompt{Type: mcp.PromptDate, Message: "When do you leave?", Format: "date",
				Validation: &mcp.PromptValidation{Required: true}}},
			{Key: "travellers", Prompt: mcp.InteractionPrompt{Type: mcp.PromptNumber, Message: "How many travellers?", Format: "integer",
				DefaultValue: json.RawMessage("1"), Validation: &mcp.PromptValidation{Required: true, Min: num(1), Max: num(9)}}},
			{Key: "confirm", Adjust: func(p *mcp.InteractionPrompt, d map[string]json.RawMessage, _ time.Time) {
				p.Message = fmt.Sprintf("Book %s to %s on %s for %s?", text(d, "class"), text(d, "destination"), text(d, "date"), d["travellers"])
			}, Prompt: mcp.InteractionPrompt{Type: mcp.PromptConfirm, Message: "Book the trip?", DefaultValue: json.RawMessage("true")}},
		},
		Finish: func(d map[string]json.RawMessage) wizardOutcome {
			trip := map[string]json.RawMessage{"destination": d["destination"], "class": d["class"], "date": d["date"], "travellers": d["travellers"]}
			if string(d["confirm"]) != "true" {
				return wizardOutcome{Data: map[string]any{"trip": trip}, Summary: "Booking declined: nothing was booked"}
			}
			ref := reference("BK-", trip)
			return wizardOutcome{Success: true, Data: map[string]any{"bookingRef": ref, "trip": trip},
				Summary: fmt.Sprintf("Booked %s to %s on %s for %s traveller(s): %s", text(d, "class"), text(d, "destination"), text(d, "date"), d["travellers"], ref)}
		}}
}

// afterToday refuses a date that is not after today (UTC).
func afterToday(v json.RawMessage, now time.Time) *refusal {
	var s string
	_ = json.Unmarshal(v, &s)
	today := now.UTC().Format(time.DateOnly)
	if s <= today { // YYYY-MM-DD sorts as it reads
		return refuse("Use a date after "+today, "%s is not after today", s)
	}
	return nil
}

// registerUser is the seed's multi-turn example: name, then email.
func registerUser() *wizard {
	return &wizard{Tool: "register_user", Description: "register a user: name, then email (a multi-turn interactive session)",
		Steps: []wizardStep{
			{Key: "name", Prompt: mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Enter name", Placeholder: "John",
				Validation: &mcp.PromptValidation{Required: true, Min: num(1), Max: num(80)}}},
			{Key: "email", Hint: "Use the form name@example.com", Prompt: mcp.InteractionPrompt{Type: mcp.PromptText, Message: "Enter email",
				Placeholder: "john@example.com", Validation: &mcp.PromptValidation{Required: true, Pattern: emailPattern, Max: num(254)}}},
		},
		Finish: func(d map[string]json.RawMessage) wizardOutcome {
			id := reference("u-", d)
			return wizardOutcome{Success: true, Data: map[string]any{"userId": id, "name": d["name"], "email": d["email"]},
				Summary: fmt.Sprintf("Registered %s <%s> as %s", text(d, "name"), text(d, "email"), id)}
		}}
}

// uploadReport takes one file's content and reports its sha256.
func uploadReport() *wizard {
	return &wizard{Tool: "upload_report", Description: "upload a report file (.csv, .json, .txt); the result holds its sha256",
		Steps: []wizardStep{
			{Key: "file", Prompt: mcp.InteractionPrompt{Type: mcp.PromptFile, Message: "Choose the report to upload",
				Accept: []string{".csv", ".json", ".txt"}, Validation: &mcp.PromptValidation{Required: true}}},
		},
		Finish: func(d map[string]json.RawMessage) wizardOutcome {
			var f fileSummary
			_ = json.Unmarshal(d["file"], &f)
			return wizardOutcome{Success: true, Data: f, Summary: fmt.Sprintf("Received %s: %d bytes, sha256 %s", f.Name, f.Size, f.SHA256)}
		}}
}
