package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"

	"github.com/mcpscope/mcpscope/client/lint"
)

// SARIF 2.1.0 (OASIS), the members mcpscope fills.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// informationURI is where the SARIF tool descriptor points readers.
	informationURI = "https://github.com/mcpscope/mcpscope"
	// fingerprintKey names the partial fingerprint that lets code scanning
	// match one finding across runs.
	fingerprintKey = "mcpscopeFinding/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string            `json:"name"`
	Version        string            `json:"version,omitempty"`
	InformationURI string            `json:"informationUri"`
	Rules          []sarifDescriptor `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifDescriptor struct {
	ID                   string           `json:"id"`
	ShortDescription     *sarifText       `json:"shortDescription,omitempty"`
	Help                 *sarifText       `json:"help,omitempty"`
	DefaultConfiguration sarifRuleDefault `json:"defaultConfiguration"`
}

type sarifRuleDefault struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel maps a severity to SARIF's level: error, warning or note.
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.SeverityError:
		return "error"
	case lint.SeverityWarning:
		return "warning"
	}
	return "note"
}

// WriteSARIF prints r as a SARIF 2.1.0 log of one run: the driver
// "mcpscope" with every rule (id, summary, default level), and a result per
// finding whose logical location is the JSON path it found, whose message
// holds the fix, and whose partial fingerprint stays the same from run to
// run while the finding does. With o.Artifact each result also points at
// that file, as GitHub code scanning requires.
func WriteSARIF(w io.Writer, r Report, o Options) error {
	rules := r.rules()
	index := map[string]int{}
	descriptors := make([]sarifDescriptor, len(rules))
	for i, rule := range rules {
		index[rule.ID] = i
		descriptors[i] = sarifDescriptor{ID: rule.ID, DefaultConfiguration: sarifRuleDefault{Level: sarifLevel(rule.Severity)}}
		if rule.Summary != "" {
			descriptors[i].ShortDescription = &sarifText{Text: rule.Summary}
			descriptors[i].Help = &sarifText{Text: rule.Summary}
		}
	}
	results := make([]sarifResult, 0, len(r.Findings))
	for _, f := range r.Findings {
		msg := f.Message
		if f.Fix != "" {
			msg += " Fix: " + f.Fix
		}
		loc := sarifLocation{LogicalLocations: []sarifLogical{{Name: f.Subject, FullyQualifiedName: f.Path, Kind: "member"}}}
		if o.Artifact != "" {
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifact{URI: o.Artifact}, Region: sarifRegion{StartLine: 1}}
		}
		res := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{Text: msg},
			Locations: []sarifLocation{loc}, PartialFingerprints: map[string]string{fingerprintKey: fingerprint(f)}}
		if f.Fix != "" {
			res.Properties = map[string]string{"fix": f.Fix, "subject": f.Subject}
		}
		results = append(results, res)
	}
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "mcpscope", Version: o.Version, InformationURI: informationURI, Rules: descriptors}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     results,
		Properties:  map[string]any{"target": r.Target, "protocolVersion": r.ProtocolVersion, "cost": r.Cost},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// fingerprint identifies a finding across runs: its rule, subject and path.
func fingerprint(f lint.Finding) string {
	sum := sha256.Sum256([]byte(f.Rule + "\x00" + f.Subject + "\x00" + f.Path))
	return hex.EncodeToString(sum[:16])
}
