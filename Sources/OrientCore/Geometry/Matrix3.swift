/// A 3x3 matrix stored by rows; `matrix * v` gives row i dotted with v as component i.
package struct Matrix3: Equatable, Sendable {
  package var row0: Vector3
  package var row1: Vector3
  package var row2: Vector3

  /// Creates a matrix from its rows.
  @inlinable
  package init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
    self.row0 = row0
    self.row1 = row1
    self.row2 = row2
  }

  /// The identity matrix.
  package static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

  /// The rows as an array, in order.
  package var rows: [Vector3] { [row0, row1, row2] }

  /// The columns as vectors, in order.
  var columns: [Vector3] {
    [
      Vector3(row0.x, row1.x, row2.x),
      Vector3(row0.y, row1.y, row2.y),
      Vector3(row0.z, row1.z, row2.z),
    ]
  }

  /// The transposed matrix.
  var transposed: Matrix3 {
    let columns = self.columns
    return Matrix3(rows: columns[0], columns[1], columns[2])
  }

  /// Applies the matrix to a vector.
  @inlinable
  package static func * (matrix: Matrix3, vector: Vector3) -> Vector3 {
    Vector3(matrix.row0.dot(vector), matrix.row1.dot(vector), matrix.row2.dot(vector))
  }

  /// The matrix product.
  package static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 {
    let columns = rhs.columns
    func row(_ r: Vector3) -> Vector3 {
      Vector3(r.dot(columns[0]), r.dot(columns[1]), r.dot(columns[2]))
    }
    return Matrix3(rows: row(lhs.row0), row(lhs.row1), row(lhs.row2))
  }

  /// The determinant.
  package var determinant: Double {
    row0.x * (row1.y * row2.z - row1.z * row2.y)
      - row0.y * (row1.x * row2.z - row1.z * row2.x)
      + row0.z * (row1.x * row2.y - row1.y * row2.x)
  }

  /// True when the rows are orthonormal within `tolerance` (M times its transpose is nearly I).
  package func isOrthonormal(tolerance: Double = 0.01) -> Bool {
    let product = self * transposed
    let identityRows = Matrix3.identity.rows
    for (row, expected) in zip(product.rows, identityRows) {
      for axis in 0..<3 where abs(row[axis] - expected[axis]) > tolerance {
        return false
      }
    }
    return true
  }
}

extension Matrix3 {
  /// The matrix whose columns are `a`, `b` and `c`.
  package init(columns a: Vector3, _ b: Vector3, _ c: Vector3) {
    self.init(rows: Vector3(a.x, b.x, c.x), Vector3(a.y, b.y, c.y), Vector3(a.z, b.z, c.z))
  }

  /// The inverse, or nil when the matrix is singular.
  var inverse: Matrix3? {
    let det = determinant
    guard abs(det) > 1e-12 else { return nil }
    let a = row0
    let b = row1
    let c = row2
    // The adjugate's rows are the cross products of the columns' pairs, transposed.
    let r0 = Vector3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
    let r1 = Vector3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
    let r2 = Vector3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
    return Matrix3(
      rows: Vector3(r0.x / det, r0.y / det, r0.z / det), Vector3(r1.x / det, r1.y / det, r1.z / det),
      Vector3(r2.x / det, r2.y / det, r2.z / det))
  }
}
