// expect-error: 'subscribeNext(_:completed:)' is unavailable: this signal can fail, and subscribeNext(_:completed:) would drop the failure: add an 'error:' handler (subscribeNext(_:error:completed:))
import AsyncSignals

struct APIError: Error {}

let countdown = Signal<Int, APIError>.return(3)
_ = countdown.subscribeNext({ print($0) }, completed: { print("liftoff") })
