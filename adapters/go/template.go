package toolconformance

// The reproduction template of a framework adapter (docs/protocol.md, "The reproduction
// template"), filled as the harness's generated README fills it, and the outcome lines a
// template prints, the one way `run-frameworks.sh` reads them back.
//
// In a Go template the placeholders sit in raw strings, which JSONText never breaks (no
// backtick): schema := json.RawMessage(`__SCHEMA__`).

import (
	"fmt"
	"os"
	"strings"
)

// FillTemplate is template with every __TOOL__ replaced by tool as it is, then every __SCHEMA__
// and __ARGUMENTS__ by the JSONText of schema and of arguments, in that order.
func FillTemplate(template, tool string, schema, arguments any) (string, error) {
	schemaText, err := JSONText(schema)
	if err != nil {
		return "", err
	}
	argumentsText, err := JSONText(arguments)
	if err != nil {
		return "", err
	}
	filled := strings.ReplaceAll(template, "__TOOL__", tool)
	filled = strings.ReplaceAll(filled, "__SCHEMA__", schemaText)
	return strings.ReplaceAll(filled, "__ARGUMENTS__", argumentsText), nil
}

// PrintReceived prints `the tool received: <JSON>` for what a tool's handler received, as compact
// JSON; a value JSON cannot carry is printed with %#v after `(not JSON)`.
func PrintReceived(value any) {
	text, err := Marshal(value)
	if err != nil {
		fmt.Fprintf(os.Stdout, "the tool received: (not JSON) %#v\n", value)
		return
	}
	fmt.Fprintf(os.Stdout, "the tool received: %s\n", text)
}

// PrintCallerGot prints `the caller got: <text>`, the error the caller got, on one line.
func PrintCallerGot(text string) {
	fmt.Fprintf(os.Stdout, "the caller got: %s\n", strings.ReplaceAll(text, "\n", " "))
}
