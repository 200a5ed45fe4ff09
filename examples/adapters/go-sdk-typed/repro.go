//go:build ignore

// One tool-conformance case against the official Go MCP SDK's typed path, as the harness runs it:
// the tool added by typedtool.Add (mcp.AddTool, a map[string]any input, the schema given), the SDK's own
// client calling tools/call over the SDK's in-memory transports. From this folder: go run repro.go
// (indented with spaces, not gofmt's tabs: the generated README shows a tab as an escape)
package main

import (
    "context"
    "encoding/json"
    "strings"

    "github.com/modelcontextprotocol/go-sdk/mcp"
    tc "github.com/tool-conformance/tool-conformance/adapters/go"
    "github.com/tool-conformance/tool-conformance/examples/adapters/go-sdk-typed/typedtool"
)

func main() {
    name := "__TOOL__"
    schema := json.RawMessage(`__SCHEMA__`)
    arguments := json.RawMessage(`__ARGUMENTS__`)
    ctx := context.Background()
    server := mcp.NewServer(&mcp.Implementation{Name: "repro", Version: "0"}, nil)
    if err := typedtool.Add(server, name, "", schema, func(received map[string]any) { tc.PrintReceived(received) }); err != nil {
        tc.PrintCallerGot(err.Error())
        return
    }
    serverSide, clientSide := mcp.NewInMemoryTransports()
    if _, err := server.Connect(ctx, serverSide, nil); err != nil {
        panic(err)
    }
    session, err := mcp.NewClient(&mcp.Implementation{Name: "repro-client", Version: "0"}, nil).Connect(ctx, clientSide, nil)
    if err != nil {
        panic(err)
    }
    result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
    if err != nil {
        tc.PrintCallerGot(err.Error())
        return
    }
    if result.IsError {
        var text []string
        for _, content := range result.Content {
            if t, ok := content.(*mcp.TextContent); ok {
                text = append(text, t.Text)
            }
        }
        tc.PrintCallerGot(strings.Join(text, "\n"))
    }
}
