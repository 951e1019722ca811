import OrientCore

/// A parsed `raw` or `sample` line.
struct SampleLine {
  var time: Double
  var vector: Vector3

  init?(_ line: String) {
    let fields = line.split(separator: " ")
    guard fields.count == 5, fields[0] == "raw" || fields[0] == "sample",
      let time = NumberParsing.finiteDouble(fields[1]), let x = NumberParsing.finiteDouble(fields[2]),
      let y = NumberParsing.finiteDouble(fields[3]), let z = NumberParsing.finiteDouble(fields[4])
    else { return nil }
    self.time = time
    vector = Vector3(x, y, z)
  }
}
