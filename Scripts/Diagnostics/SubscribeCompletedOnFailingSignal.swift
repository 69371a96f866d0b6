// expect-error: 'subscribeCompleted' is unavailable: this signal can fail, and subscribeCompleted(_:) would drop the failure: use subscribeError(_:completed:)
import AsyncSignals

struct MigrationError: Error {}

let migration = Signal<Void, MigrationError>.empty
_ = migration.subscribeCompleted { print("migrated") }
