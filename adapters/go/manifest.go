package toolconformance

// An MCP server under test, reached over MCP itself (`tool-conformance run --mcp-server CMD`): the
// tool manifest it registers its tools from, and the record of what each tool's handler received
// (docs/protocol.md, "The manifest and the record").
//
// LoadManifest reads the file TOOL_CONFORMANCE_MANIFEST names; a server registers every tool of
// it as its users register a tool, with a handler that calls Record(name, arguments) with what it
// received and returns "ok". A tool the framework refuses to register is left out of tools/list,
// and Refuse(name, why) says so in the record before the server serves, why quoting the
// framework's error as `<the call> refused <what>: <its error>`.

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// The environment variables the harness names the manifest and the record in.
const (
	ManifestVariable = "TOOL_CONFORMANCE_MANIFEST"
	RecordVariable   = "TOOL_CONFORMANCE_RECORD"
)

// ManifestTool is one tool of the manifest.
type ManifestTool struct {
	Name           string
	Description    string
	HasDescription bool
	// InputSchema is the tool's input schema, its exact JSON text (numbers and key order as the
	// case files write them).
	InputSchema json.RawMessage
}

func pathOf(given, variable string) (string, error) {
	if given != "" {
		return given, nil
	}
	if path := os.Getenv(variable); path != "" {
		return path, nil
	}
	return "", fmt.Errorf("%s is not set: start this server with `tool-conformance run --mcp-server`", variable)
}

// LoadManifest is the tools of the manifest at path (by default the file TOOL_CONFORMANCE_MANIFEST
// names), in its order; an error names the file and what is wrong with it.
func LoadManifest(path string) ([]ManifestTool, error) {
	path, err := pathOf(path, ManifestVariable)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot be read: %w", path, err)
	}
	parsed, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not UTF-8 JSON: %w", path, err)
	}
	doc, _ := parsed.(Object)
	if version, _ := doc.Get("manifest"); version != json.Number("1") {
		return nil, fmt.Errorf(`%s: not a tool manifest of version 1 (no "manifest": 1)`, path)
	}
	list, ok := func() ([]any, bool) { v, _ := doc.Get("tools"); l, ok := v.([]any); return l, ok }()
	if !ok {
		return nil, fmt.Errorf(`%s: "tools" is not a list`, path)
	}
	seen := map[string]bool{}
	tools := make([]ManifestTool, 0, len(list))
	for i, item := range list {
		obj, ok := item.(Object)
		if !ok {
			return nil, fmt.Errorf("%s: tools[%d] is not an object", path, i)
		}
		nameValue, _ := obj.Get("name")
		name, ok := nameValue.(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: tools[%d] has no name", path, i)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s: tools[%d]: the name %q is published twice", path, i, name)
		}
		seen[name] = true
		tool := ManifestTool{Name: name}
		if d, ok := obj.Get("description"); ok {
			text, isString := d.(string)
			if !isString {
				return nil, fmt.Errorf("%s: tools[%d] (%s): description is not a string", path, i, name)
			}
			tool.Description, tool.HasDescription = text, true
		}
		schema, ok := obj.Get("input_schema")
		if !ok {
			return nil, fmt.Errorf("%s: tools[%d] (%s) has no input_schema", path, i, name)
		}
		tool.InputSchema = MustJSON(schema)
		tools = append(tools, tool)
	}
	return tools, nil
}

// RecordLine is the line Record appends for a call of tool that received arguments, with its
// "\n": {"tool":NAME,"arguments":VALUE} in JSONText, or {"tool":NAME,"not_json":TEXT} when the
// value is one JSON cannot carry, TEXT the value as Go's %#v writes it and why it is not JSON (the
// harness fails the case: the handler ran on a value other than the one sent).
func RecordLine(tool string, arguments any) string {
	name, _ := JSONText(tool)
	text, err := JSONText(arguments)
	if err != nil {
		what, _ := JSONText(fmt.Sprintf("%#v (Go %%#v syntax; not JSON: %s)", arguments, err.Error()))
		return `{"tool":` + name + `,"not_json":` + what + "}\n"
	}
	return `{"tool":` + name + `,"arguments":` + text + "}\n"
}

// RefusalLine is the line Refuse appends for a tool the framework refused to register.
func RefusalLine(tool, why string) string {
	name, _ := JSONText(tool)
	reason, _ := JSONText(why)
	return `{"tool":` + name + `,"refused":` + reason + "}\n"
}

var recordMu sync.Mutex

// AppendRecord appends line to the record at path (by default the file TOOL_CONFORMANCE_RECORD
// names), written and synced before it returns.
func AppendRecord(path, line string) error {
	path, err := pathOf(path, RecordVariable)
	if err != nil {
		return err
	}
	recordMu.Lock()
	defer recordMu.Unlock()
	file, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := file.WriteString(line); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// Record appends what the handler of tool received to the record, one line, before it returns.
func Record(tool string, arguments any) error { return AppendRecord("", RecordLine(tool, arguments)) }

// Refuse says in the record that the framework refused to register tool, and why (`<the call>
// refused <what>: <its error>`). The server leaves the tool out of its listing.
func Refuse(tool, why string) error { return AppendRecord("", RefusalLine(tool, why)) }
