# bloomfilter: Bloom, counting Bloom, quotient and cuckoo filter types and
# the pagebloom index access method for PostgreSQL.
#
#   make demo   build, install, start a throwaway cluster, show the types at work
#   make test   build (with assertions), install, run every pg_regress and TAP test
#
# Both install the Debian packages they need when run as root (test/deps.sh).

EXTENSION = bloomfilter
EXTVERSION = 1.1

MODULE_big = $(EXTENSION)
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c)))
HEADERS = $(wildcard src/*.h)

DATA_built = sql/$(EXTENSION)--$(EXTVERSION).sql
# the install scripts of earlier releases are kept as they were released, with the upgrade scripts
DATA = sql/$(EXTENSION)--1.0.sql $(wildcard sql/$(EXTENSION)--*--*.sql)

# pg_regress inputs are sql/*.sql other than the extension scripts
REGRESS ?= $(sort $(patsubst sql/%.sql,%,$(filter-out sql/$(EXTENSION)--%,$(wildcard sql/*.sql))))
REGRESS_OPTS = --load-extension=$(EXTENSION) $(if $(REGRESS_OUTDIR),--outputdir=$(REGRESS_OUTDIR))

SHLIB_LINK += -lxxhash
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter -Werror
ifdef ASSERTS
PG_CPPFLAGS += -DUSE_ASSERT_CHECKING
endif

EXTRA_CLEAN = results regression.diffs regression.out tmp_check log

# no LLVM bitcode: clang is not needed to build
override with_llvm = no

PG_CONFIG ?= $(firstword $(wildcard /usr/lib/postgresql/15/bin/pg_config) pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
endif

.DEFAULT_GOAL := all

# The install script is assembled from one part per type (sql/src/NN_*.sql)
sql/$(EXTENSION)--$(EXTVERSION).sql: $(sort $(wildcard sql/src/*.sql))
	cat $^ > $@

.PHONY: deps demo test bench

deps:
	@sh test/deps.sh

demo: deps
	$(MAKE) install
	sh test/demo.sh

test: deps
	sh test/run-tests.sh

bench: deps
	sh test/bench/run.sh
