import Testing

@testable import OrientCore

private func json(_ change: StateChange) -> String { ProtocolRendering.line(for: change, format: .json) }

@Suite("The readings' JSON events")
struct JSONReadingTests {
  @Test("Light: a number with its unit, null while undefined, the string none without a sensor")
  func light() {
    #expect(
      json(.light(.value(LightLevel(350.5, unit: .lux))))
        == #"{"event":"light","value":350.5,"unit":"lux"}"# + "\n")
    #expect(
      json(.light(.value(LightLevel(50.196_078, unit: .vendor))))
        == #"{"event":"light","value":50.2,"unit":"vendor"}"# + "\n")
    #expect(
      json(.light(.value(LightLevel(0, unit: .lux)))) == #"{"event":"light","value":0,"unit":"lux"}"# + "\n")
    #expect(json(.light(.unknown)) == #"{"event":"light","value":null}"# + "\n")
    #expect(json(.light(.absent)) == #"{"event":"light","value":"none"}"# + "\n")
  }

  @Test("Heading: a number, null while undefined, the string none without a compass")
  func heading() {
    #expect(json(.heading(.value(123.4))) == #"{"event":"heading","value":123.4}"# + "\n")
    #expect(json(.heading(.value(0))) == #"{"event":"heading","value":0}"# + "\n")
    #expect(json(.heading(.unknown)) == #"{"event":"heading","value":null}"# + "\n")
    #expect(json(.heading(.absent)) == #"{"event":"heading","value":"none"}"# + "\n")
  }

  @Test("Proximity: a string, as the text protocol spells it")
  func proximity() {
    #expect(json(.proximity(.value(true))) == #"{"event":"proximity","value":"near"}"# + "\n")
    #expect(json(.proximity(.value(false))) == #"{"event":"proximity","value":"far"}"# + "\n")
    #expect(json(.proximity(.unknown)) == #"{"event":"proximity","value":"undefined"}"# + "\n")
    #expect(json(.proximity(.absent)) == #"{"event":"proximity","value":"none"}"# + "\n")
  }

  @Test("JSON.value is the value alone, the light's unit after it")
  func valueAlone() {
    #expect(JSON.value(of: .light(.value(LightLevel(12, unit: .lux)))) == #"12,"unit":"lux""#)
    #expect(JSON.value(of: .heading(.value(359.9))) == "359.9")
    #expect(JSON.value(of: .heading(.absent)) == #""none""#)
  }

  @Test("Text lines of the readings end in a newline, like every state line")
  func textLines() {
    #expect(ProtocolRendering.line(for: .light(.unknown), format: .text) == "light undefined\n")
    #expect(ProtocolRendering.line(for: .heading(.value(90)), format: .text) == "heading 90\n")
  }
}
