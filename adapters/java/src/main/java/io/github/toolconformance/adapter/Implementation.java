package io.github.toolconformance.adapter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What {@code start} answers: the runtime's name and version, the rules it claims ({@code
 * RT-TOOL-8}, {@code PLAT-162}) and the transports it has ({@code direct}, {@code structured},
 * {@code http}); {@code language} is {@code java} unless given, {@code homepage} optional (null);
 * {@code getApiSpec}, optional (null), is the words (a name, a URL) the runtime's HTTP errors point
 * callers back to get_api_spec with, when its discovery is not a tool named get_api_spec: the start
 * answer's {@code get_api_spec} (docs/protocol.md); left out, the harness looks for "get_api_spec".
 */
public record Implementation(
    String name,
    String version,
    List<String> rules,
    List<String> transports,
    String language,
    String homepage,
    String getApiSpec) {

  /** An implementation in Java with no homepage. */
  public Implementation(String name, String version, List<String> rules, List<String> transports) {
    this(name, version, rules, transports, "java", null, null);
  }

  /** An implementation whose HTTP errors point back by the tool's name, get_api_spec. */
  public Implementation(
      String name, String version, List<String> rules, List<String> transports, String language, String homepage) {
    this(name, version, rules, transports, language, homepage, null);
  }

  /** Copies the lists, so the claims cannot change during a run. */
  public Implementation {
    rules = List.copyOf(rules);
    transports = List.copyOf(transports);
    language = language == null ? "java" : language;
  }

  /**
   * The version of a Maven artifact on the class path, as its jar's {@code
   * META-INF/maven/GROUP/ARTIFACT/pom.properties} says (what was installed, not what a pom asked
   * for); null when no jar on the class path carries it.
   */
  public static String installedVersion(String groupId, String artifactId) {
    String resource = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    try (java.io.InputStream in = Implementation.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) return null;
      java.util.Properties properties = new java.util.Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (java.io.IOException unreadable) {
      return null;
    }
  }

  /** The {@code implementation} object of the {@code start} answer. */
  public ObjectNode describe() {
    ObjectNode described = Json.object();
    described.put("name", name);
    described.put("version", version);
    described.put("language", language);
    if (homepage != null && !homepage.isEmpty()) described.put("homepage", homepage);
    return described;
  }
}
