// Fuzzes mount-matrix parsing and the choice among candidates, and checks formatting round-trips.
public func fuzzMountMatrix(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
  if let matrix = try? MountMatrix.parse(text) {
    let again = try? MountMatrix.parse(MountMatrix.format(matrix))
    precondition(again != nil, "a parsed matrix must parse again once formatted")
    _ = matrix.isOrthonormal()
    _ = matrix.inverse
  }
  let choice = MountMatrixChoice(candidates: [
    MountMatrixCandidate(source: .udev, text: text),
    MountMatrixCandidate(source: .identity, text: "1,0,0;0,1,0;0,0,1"),
  ])
  _ = choice.warnings
  return 0
}
