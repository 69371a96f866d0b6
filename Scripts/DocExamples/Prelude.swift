// Illustrative declarations for the doc-comment examples (Scripts/check-doc-examples.swift type-checks the examples
// against these). Each name is what most examples mean by it; an example that means something else declares its own
// local of that name, or is listed in Pending.txt until it does. Nothing here runs: bodies are placeholders.
import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Observation

// MARK: Errors and values

struct APIError: Error, Equatable {}
struct LoginError: Error {}
struct StoreError: Error {}
enum AppError: Error {
  case network(URLError)
  case unknownRoute(String)
}
struct Item: Sendable {}
struct Credentials: Sendable {}
struct Session: Sendable {}
struct Profile: Sendable {}
struct Position: Sendable {}
struct Settings: Sendable { static let defaults = Settings() }
struct Message: Sendable {}
struct Document: Sendable {}
struct QuoteError: Error {}
struct Page: Sendable {}
struct Draft: Sendable {}
struct Record: Sendable {}

// MARK: UI stand-ins (their setters do nothing)

struct Spinner: Sendable {
  var isHidden: Bool {
    get { false }
    nonmutating set {}
  }
  var isAnimating: Bool {
    get { false }
    nonmutating set {}
  }
  func start() {}
  func stop() {}
}
struct Button: Sendable {
  var isEnabled: Bool {
    get { true }
    nonmutating set {}
  }
}
struct ProgressBar: Sendable {
  var value: Double {
    get { 0 }
    nonmutating set {}
  }
  var isHidden: Bool {
    get { false }
    nonmutating set {}
  }
}
let spinner = Spinner()
let button = Button()
let bar = ProgressBar()

func show<T>(_ value: T) {}
func showError<E: Error>(_ error: E) {}
func showAlert<E: Error>(_ error: E) {}
func store(_ session: Session) {}
func render(_ position: Position) async {}
func parse(_ data: Data) {}
func runSearch(_ query: String) async {}

// MARK: Examples outside the operators

// Core, Commands, Disposables, Schedulers, Subjects
enum LookupError: Error { case notFound }
let subscriber = ClosureSubscriber<Int, LookupError>(next: { _ in }, error: { _ in }, completed: {})
/// A thread-safe counter of your own (Scheduler.scheduleRecursive).
final class Counter: Sendable {
  init(_ value: Int) {}
  var value: Int { 0 }
  func decrement() -> Int { 0 }
}
/// A scheduler of your own; the example of `performAsCurrent(_:)` adds its `schedule(_:)`.
final class CustomScheduler: Scheduler {
  let queue = DispatchQueue(label: "custom")
  var now: Date { Date() }
  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? { nil }
  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? { nil }
}

/// What a test records (TestRecorder's and Recorded's examples).
let recorder = TestScheduler().record(Subject<Int, Never>())
let replies = TestScheduler().record(Subject<String, Never>().timeout(.seconds(5), on: TestScheduler()))

// Bindings, Multicast, Sequences
/// An object whose subscriptions end with it (Lifetime's examples).
final class FeedModel: LifetimeProviding, Sendable {
  let lifetime = Lifetime()
  func refresh() {}
}
let model = FeedModel()
struct Slider: Sendable {
  var value: Double {
    get { 0 }
    nonmutating set {}
  }
}
let slider = Slider()
enum Color: Sendable { case black, red }
final class Style: Sendable {
  var color: Color {
    get { .black }
    set {}
  }
}
let style = Style()
let selectedColor = Signal<Color?, Never>.never
/// A main-actor stand-in for a view.
@MainActor final class Label { var text = "" }
@MainActor let titleLabel = Label()
@MainActor let subtitleLabel = Label()
struct ViewModel: Sendable {
  let title = Signal<String, Never>.never
  let subtitle = Signal<String?, Never>.never
}
let viewModel = ViewModel()
let keyboardWillShow = Notification.Name("UIKeyboardWillShowNotification")
func refreshTimestamps() {}
struct Image: Sendable {}
struct DecodeError: Error {}
let imageData = Data()
func decode(_ data: Data) -> Result<Image, DecodeError> { .success(Image()) }
struct Config: Sendable {}
func loadConfig() -> Config { Config() }
let fileLines = Signal<String, Never>.never

// Interop
@MainActor final class Table { func show(_ rows: [String]) {} }
@MainActor final class Banner { func show(_ error: some Error) {} }
@MainActor let clockLabel = Label()
@MainActor let table = Table()
@MainActor let banner = Banner()
let progress = Signal<Double, Never>.never
let ticker = Signal<Double, Never>.never
func redraw(_ price: Double) async {}
func handle(_ message: String) async {}
func archive(_ line: String) async {}
extension Profile { var name: String { "" } }
func loadProfile() async throws(APIError) -> Profile { Profile() }
struct DeepThought: Sendable { func compute() async -> Int { 42 } }
let deepThought = DeepThought()
struct Cursor: Sendable {}
extension Page { var next: Cursor? { nil } }
extension API {
  func page(after cursor: Cursor?) async throws(APIError) -> Page { Page() }
  func session(for credentials: Credentials) async throws(LoginError) -> Session { Session() }
}
struct Row: Sendable {}
extension Database { func query(_ sql: String) -> Signal<Row, StoreError> { .never } }
struct SensorError: Error { let code: Int }
struct Sensor: Sendable { let readings = Signal<Double, SensorError>.never }
let sensor = Sensor()
struct Frame: Sendable {}
struct Camera: Sendable { let frames = Signal<Frame, Never>.never }
let camera = Camera()
func encode(_ frame: Frame) async {}

// MARK: Signals the examples subscribe to

let scheduler = TestScheduler()
let worker = QueueScheduler(name: "worker")
let uploader = QueueScheduler(name: "uploader")

let search = Signal<[String], APIError>.never
let clicks = Signal<Int, Never>.never
let buttonTaps = Signal<Void, Never>.never
let ticks = Signal<Int, Never>.never
let download = Signal<Data, URLError>.never
let uploads = Signal<Int, Never>.never
let migration = Signal<Void, APIError>.never
let countdown = Signal<Int, Never>.never
let request = Signal<String, URLError>.never
let location = Signal<Position, Never>.never
let temperature = Signal<Int, Never>.never
let humidity = Signal<Int, Never>.never
let words = Signal<String, Never>.never
let lines = Signal<String, Never>.never
let logLines = Signal<String, Never>.never
let amounts = Signal<Int, Never>.never
let messages = Signal<String, Never>.never
let updates = Signal<String, Never>.never
let queries = Signal<String, Never>.never
let searchText = Signal<String, Never>.never
let text = Signal<String, Never>.never
let firstName = Signal<String, Never>.never
let lastName = Signal<String, Never>.never
let name = Signal<String, Never>.never
let email = Signal<String, Never>.never
let phone = Signal<String, Never>.never
let street = Signal<String, Never>.never
let city = Signal<String, Never>.never
let accepted = Signal<Bool, Never>.never
let formIsValid = Signal<Bool, Never>.never
let isLoading = Signal<Bool, Never>.never
let isSaving = Signal<Bool, Never>.never
let ids = Signal<Int, Never>.never
let names = Signal<String, Never>.never
let ages = Signal<Int, Never>.never
let cities = Signal<String, Never>.never
let emails = Signal<String, Never>.never
let phones = Signal<String, Never>.never
let scores = Signal<Int, Never>.never
let users = Signal<String, APIError>.never
let records = Signal<Document, Never>.never
let fetchStatus = Signal<String, APIError>.never
let work = Signal<Int, Never>.never
let urls = Signal<URL, Never>.never
let url = URL(fileURLWithPath: "/")
let credentials = Credentials()
let document = Document()

func download(_ url: URL) -> Signal<Data, Never> { .never }
func search(_ query: String) -> Signal<[String], Never> { .never }
func search(for query: String) -> Signal<[String], Never> { .never }
func fetch(page: Int) -> Signal<String, APIError> { .never }
func fetchUser() -> Signal<String, APIError> { .never }
func loadSettings() -> Signal<Settings, Never> { .never }

// MARK: Disposables, subjects and commands the examples hold

let numbers = Signal<Int, Never>.never
let results = Signal<[String], Never>.never
let subject = Subject<Int, Never>()
let subscriptions = CompoundDisposable()
let subscription = SerialDisposable()
let current = SerialDisposable()
let upload = Signal<Void, APIError>.never
let save = Command<Document, String, APIError> { _ in .never }
let volume = ObservableValue(0.5)

struct API: Sendable {
  func logIn(_ credentials: Credentials) -> Signal<Session, LoginError> { .never }
  func items() -> Signal<[Item], APIError> { .never }
}
let api = API()

// MARK: Async work, actors and subscribers the examples use

extension API {
  func page(_ number: Int) async throws(APIError) -> Page { Page() }
  func save(_ draft: Draft) async throws(APIError) {}
}
struct Parser: Sendable { let records = Signal<Record, Never>.never }
let parser = Parser()
struct Database: Sendable { func insert(_ record: Record) async {} }
let database = Database()
let requests = Signal<String, Never>.never
let responses = Signal<String, Never>.never
let logger = ClosureSubscriber<String, Never>(next: { _ in }, error: { _ in }, completed: {})
let login = Command<Credentials, Session, LoginError> { _ in .never }
/// An actor the isolated-delivery examples deliver into.
actor Library {
  var pages: [[String]] = []
  var lastError: APIError?
  var uploaded = 0
  var isDone = false
}
let library = Library()

// MARK: Operators' examples

enum SearchScope: Sendable { case all, titles }
enum SortKey: Sendable { case relevance, date }
let scope = Signal<SearchScope, Never>.never
let sortKey = Signal<SortKey, Never>.never
let pageNumber = Signal<Int, Never>.never
let theme = Signal<String, Never>.never
let fontName = Signal<String, Never>.never
let fontSize = Signal<Double, Never>.never
let lineSpacing = Signal<Double, Never>.never
let language = Signal<String, Never>.never
/// The price of each line of a shopping cart, in cents.
let cartLines: [Signal<Int, Never>] = []
let expensiveQuery = Signal<[Record], Never>.never
func fetch(_ url: URL) -> Signal<Data, any Error> { .never }
enum Tab: Hashable, Sendable { case news, mail, settings }
let tab = Signal<Tab, Never>.never
struct Screen: Sendable {}
let route = Signal<String, AppError>.never
let screens: [String: Signal<Screen, AppError>] = [:]
let isOnline = Signal<Bool, Never>.never
let cachedItems = Signal<[Item], APIError>.never
let prices = Signal<Double, Never>.never
let bytes = Signal<UInt8, Never>.never
final class Histogram: Sendable { func count(_ word: String) {} }
struct Cache: Sendable { func store(_ value: String) {} }
let cache = Cache()
let drafts = Signal<Draft, StoreError>.never
func validate(_ draft: Draft) throws(StoreError) {}
struct User: Sendable { init(decoding data: Data) throws(APIError) {} }
let payloads = Signal<Data, APIError>.never
let recordedEvents = Signal<Event<Int, APIError>, Never>.never

// MARK: Observation's examples

/// A main-actor `@Observable` model, as SwiftUI models are.
@MainActor
@Observable
final class SearchViewModel {
  var query = ""
  var results: [String] = []
  var isSearching = false
}
@MainActor
@Observable
final class CartModel {
  var items: [String] = []
}

// MARK: TestScheduler.settle's examples

/// An async search (`Signal.async` and `Command` examples of testing async work).
struct Catalog: Sendable { func search(_ query: String) async -> [String] { [] } }
let catalog = Catalog()
let logFileLines: [String] = []  // a lazy sequence of a file's lines, in the flow-control examples
