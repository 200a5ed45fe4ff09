// One tool-conformance case against langchain4j (Maven dev.langchain4j:langchain4j), as the
// langchain4j row runs it: the tool built by the row's own Tools.specification (a ToolSpecification
// whose parameters are langchain4j's JsonObjectSchema of the schema) with a ToolExecutor, called by
// an AI service whose scripted chat model asks for one tool call with the arguments below as JSON
// text. From this folder, after run-frameworks.sh installed it, with this text saved as
// /tmp/Repro.java (the case is read back from the file java runs):
//
//   java -cp 'target/classes:target/lib/*' /tmp/Repro.java
//
// The case (JSON in printable ASCII; read from this file's own text, since Java would decode the
// unicode escapes of a string literal before parsing it):
//> tool: __TOOL__
//> schema: __SCHEMA__
//> arguments: __ARGUMENTS__
import dev.langchain4j.agent.tool.ToolSpecification;
import io.github.toolconformance.adapter.Json;
import io.github.toolconformance.adapter.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Repro {
  static String line(List<String> source, String key) {
    return source.stream().filter(l -> l.startsWith("//> " + key + ": ")).findFirst().orElseThrow()
        .substring(("//> " + key + ": ").length());
  }

  public static void main(String[] args) throws Exception {
    List<String> source = Files.readAllLines(Path.of(System.getProperty("jdk.launcher.sourcefile", "Repro.java")));
    String name = line(source, "tool");
    ToolSpecification tool = Tools.specification(name, null, Json.read(line(source, "schema")));
    System.out.println("the published schema: " + Json.write(Tools.published(tool)));
    Tools.ScriptedModel model = new Tools.ScriptedModel();
    boolean[] ran = {false};
    Tools.Assistant assistant = Tools.service(model, List.of(tool), (called, argumentsText) -> {
      ran[0] = true;
      Outcome.received(Tools.read(argumentsText));
    });
    model.willCall(name, line(source, "arguments"));
    assistant.chat("Call the tool.");
    if (!ran[0]) Outcome.callerGot(model.result() == null ? "no tool result" : model.result().text());
  }
}
