/// A deliberately broken client (`--sabotage`), to prove that the run catches a race of the program's own: the tasks
/// of the ingest service and of the feed write one plain `Int` with no lock.
final class Sabotage: Sendable {
  enum Kind: String, CaseIterable {
    /// The writes are plain code of the client's.
    case dataRace = "data-race"
    /// The writes are made in the closure passed to `withUnsafeContinuation`, whose own accesses the toolchain's
    /// false report names (README, "Sanitizers"): a race of the client's there is still reported.
    case continuationClosure = "continuation-closure"
  }

  let kind: Kind
  /// The racing `Int`, carried as its address so that no type has to claim to be `Sendable` to share it.
  private let address: Int

  init(_ kind: Kind) {
    self.kind = kind
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    address = Int(bitPattern: pointer)
  }

  deinit {
    UnsafeMutablePointer<Int>(bitPattern: address)?.deallocate()
  }

  func touch() async {
    guard let pointer = UnsafeMutablePointer<Int>(bitPattern: address) else { return }
    switch kind {
    case .dataRace:
      pointer.pointee += 1
    case .continuationClosure:
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        pointer.pointee += 1
        continuation.resume()
      }
    }
  }
}
