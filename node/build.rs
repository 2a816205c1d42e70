//! Link flags for a Node-API addon.

fn main() {
    napi_build::setup();
}
