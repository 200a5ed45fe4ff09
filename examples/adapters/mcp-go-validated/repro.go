//go:build ignore

// One tool-conformance case against mark3labs/mcp-go (WithInputSchemaValidation) over MCP, as the harness runs it: this
// folder's server (.build/server, built by run-frameworks.sh from the row's tool package) started
// over stdio with a one-tool manifest, and mcp-go's own stdio client calling tools/call. What the
// tool's handler received is read from the record the server keeps. From this folder: go run repro.go
// (indented with spaces, not gofmt's tabs: the generated README shows a tab as an escape)
package main

import (
    "bufio"
    "context"
    "encoding/json"
    "os"
    "path/filepath"
    "strings"

    "github.com/mark3labs/mcp-go/client"
    "github.com/mark3labs/mcp-go/mcp"
    tc "github.com/tool-conformance/tool-conformance/adapters/go"
)

func main() {
    name := "__TOOL__"
    schema := json.RawMessage(`__SCHEMA__`)
    arguments := json.RawMessage(`__ARGUMENTS__`)
    folder, _ := os.MkdirTemp("", "repro")
    defer os.RemoveAll(folder)
    manifest, record := filepath.Join(folder, "manifest.json"), filepath.Join(folder, "record.jsonl")
    os.WriteFile(manifest, []byte(`{"manifest":1,"tools":[{"name":"`+name+`","input_schema":`+string(schema)+`}]}`), 0o644)
    ctx := context.Background()
    c, err := client.NewStdioMCPClient(".build/server", append(os.Environ(), tc.ManifestVariable+"="+manifest, tc.RecordVariable+"="+record))
    if err != nil {
        panic(err)
    }
    defer c.Close()
    if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
        panic(err)
    }
    request := mcp.CallToolRequest{}
    request.Params.Name, request.Params.Arguments = name, arguments
    result, err := c.CallTool(ctx, request)
    ran := 0
    if file, openErr := os.Open(record); openErr == nil {
        lines := bufio.NewScanner(file)
        lines.Buffer(nil, 1<<24)
        for lines.Scan() {
            var line struct{ Arguments json.RawMessage }
            json.Unmarshal(lines.Bytes(), &line)
            tc.PrintReceived(line.Arguments)
            ran++
        }
    }
    if ran > 0 {
        return
    }
    if err != nil {
        tc.PrintCallerGot(err.Error())
    } else if result.IsError {
        var text []string
        for _, content := range result.Content {
            if t, ok := content.(mcp.TextContent); ok {
                text = append(text, t.Text)
            }
        }
        tc.PrintCallerGot(strings.Join(text, "\n"))
    }
}
