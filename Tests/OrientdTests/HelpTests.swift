import Foundation
import Testing

@Suite("orientd --help and orientd(8)", .scratch)
struct HelpTests {
  /// One option of a list: its section, and the default it states, if any.
  struct Listed: Equatable, CustomStringConvertible {
    var section: String
    var option: String
    var text: String
    var description: String { "\(section): \(option)" }
    static func == (a: Listed, b: Listed) -> Bool { a.section == b.section && a.option == b.option }
  }

  /// The default an option's text gives, `(default X)` up to `)` or `;`, if any.
  static func stated(default text: String) -> String? {
    guard let match = text.firstMatch(of: /\(default ([^);]+)[);]/) else { return nil }
    return String(match.output.1).trimmingCharacters(in: .whitespaces)
  }

  /// The options `orientd --help` lists, section by section, in order.
  static func helpOptions(_ help: String) -> [Listed] {
    var listed: [Listed] = []
    var section = ""
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if let first = line.first, first != " ", line.hasSuffix(":") {
        section = String(line.prefix { $0 != "(" && $0 != ":" }).trimmingCharacters(in: .whitespaces)
      } else if line.hasPrefix("  --") {
        let option = String(line.dropFirst(2).split(separator: " ").first!.split(separator: ",").first!)
        listed.append(Listed(section: section, option: option, text: String(line)))
      } else if line.hasPrefix("   "), !listed.isEmpty {
        listed[listed.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return listed
  }

  /// The options orientd(8)'s OPTIONS section describes, subsection by subsection, in order:
  /// a subsection's title is indented 3 columns, an option's tag 7 after a blank line.
  static func pageOptions(_ page: String) -> [Listed] {
    guard let start = page.range(of: "\nOPTIONS\n") else { return [] }
    let rest = page[start.upperBound...]
    let end = rest.firstRange(of: /\n[A-Z]/)?.lowerBound ?? rest.endIndex
    var listed: [Listed] = []
    var section: String?
    var current: Int?
    // After a blank line or a subsection's title, a line indented 7 starts an entry.
    var previousBlank = false
    for line in rest[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
      var title = false
      defer { previousBlank = title || line.trimmingCharacters(in: .whitespaces).isEmpty }
      if line.hasPrefix("   "), !line.hasPrefix("    ") {
        section = line.trimmingCharacters(in: .whitespaces)
        current = nil
        title = true
      } else if let section, previousBlank, line.hasPrefix("       --") {
        let tag = line.dropFirst(7)
        let option = String(tag.split(separator: " ").first!.split(separator: ",").first!)
        listed.append(Listed(section: section, option: option, text: String(tag)))
        current = listed.count - 1
      } else if previousBlank, line.hasPrefix("       "), !line.hasPrefix("        ") {
        current = nil  // a paragraph of the subsection, not an option's text
      } else if let current, !line.trimmingCharacters(in: .whitespaces).isEmpty {
        listed[current].text += "\n" + line
      }
    }
    return listed
  }

  @Test(
    "orientd(8) describes exactly the options of orientd --help, in the same sections, with their defaults")
  func pageListsTheOptionsOfHelp() throws {
    let help = try runToCompletion([TestPaths.orientd, "--help"])
    #expect(help.status == 0)
    let printed = try #require(
      help.stdout.range(of: "Actions:").flatMap { start in
        help.stdout.range(of: "\nOrientations:").map { help.stdout[start.lowerBound..<$0.lowerBound] }
      }, "the help has no option list: \(help.stdout)")
    let fromHelp = Self.helpOptions(String(printed))
    // The premise: the list is not empty and names options.
    #expect(fromHelp.count >= 30, "\(fromHelp)")
    #expect(fromHelp.contains { $0.option == "--interval" && $0.section == "Sample source" })

    let (text, _) = try ManPageTests.rendered("orientd.8")
    let fromPage = Self.pageOptions(text)
    #expect(
      Set(fromPage.map(\.description)) == Set(fromHelp.map(\.description)),
      "update orientd.8's OPTIONS from `orientd --help`: \(fromPage) against \(fromHelp)")
    #expect(fromPage.map(\.section).uniqued() == fromHelp.map(\.section).uniqued(), "the sections' order")
    for option in fromHelp {
      guard let value = Self.stated(default: option.text) else { continue }
      let entry = fromPage.first { $0 == option }.map { ManPageTests.prose($0.text).lowercased() } ?? ""
      #expect(
        entry.contains("default " + value.lowercased()),
        "orientd.8 gives \(option.option) another default than --help's \(value): \(entry)")
    }
  }
}

extension Array where Element: Hashable {
  /// The elements in order, each once.
  fileprivate func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
