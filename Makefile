# Builds the engine as OpenBench builds engines: `make EXE=NAME` leaves the release binary
# at NAME (default: `regex-chess` in this directory). Cargo does the work; this file only
# names the result. See docs/uci.md, "On OpenBench".

EXE ?= regex-chess
CARGO ?= cargo
# Cargo's output directory: `CARGO_TARGET_DIR` when set, else `target`.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all
all:
	$(CARGO) build --release --locked --bin regex-chess
	cp $(TARGET_DIR)/release/regex-chess $(EXE)
