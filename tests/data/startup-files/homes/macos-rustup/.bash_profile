. "$HOME/.cargo/env"
