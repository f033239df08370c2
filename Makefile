# bloomfilter: Bloom, counting Bloom, quotient and cuckoo filter types and
# the pagebloom index access method for PostgreSQL.
#
#   make demo   build, install, start a throwaway cluster, show the types at work
#   make test   build (with assertions), install, run every pg_regress and TAP test
#   make test-matrix   the same on PostgreSQL 16, 17 and 18 (chroots: Ubuntu 24.04, Debian 13, sid; root)
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
# the library reports the extension version it was built for (PostgreSQL 18's PG_MODULE_MAGIC_EXT)
PG_CPPFLAGS += -DBLOOMFILTER_VERSION='"$(EXTVERSION)"'
PG_CFLAGS += -Wall -Wextra -Wno-unused-parameter -Werror
ifdef ASSERTS
PG_CPPFLAGS += -DUSE_ASSERT_CHECKING
endif
# NOVEC=1: the portable code where GCC's vector extension is used otherwise
# (the row map compare of pagebloom scans), as compilers without it build it
ifdef NOVEC
PG_CPPFLAGS += -DPB_NO_VECTOR_EXT
endif

# UBSAN=1: undefined-behaviour checks that abort the backend on the first finding
# (the library links libubsan; the server itself need not be instrumented)
ifdef UBSAN
PG_CFLAGS += -fsanitize=undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SHLIB_LINK += -fsanitize=undefined
endif

EXTRA_CLEAN = results regression.diffs regression.out tmp_check log

# no LLVM bitcode: clang is not needed to build
override with_llvm = no

# the newest installed server (Debian layout), or PG_CONFIG=/path/to/pg_config
PG_CONFIG ?= $(or $(patsubst %/postgres,%/pg_config,$(lastword $(sort $(wildcard /usr/lib/postgresql/*/bin/postgres)))),pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(wildcard $(PGXS)),)
include $(PGXS)
endif

.DEFAULT_GOAL := all

# The install script is assembled from one part per type (sql/src/NN_*.sql)
sql/$(EXTENSION)--$(EXTVERSION).sql: $(sort $(wildcard sql/src/*.sql))
	cat $^ > $@

.PHONY: deps demo test test-matrix bench

deps:
	@sh test/deps.sh

demo: deps
	$(MAKE) install
	sh test/demo.sh

test: deps
	sh test/run-tests.sh

# the same suites on PostgreSQL 17 and 18 in Debian chroots, and data across versions (root)
test-matrix: deps
	sh test/matrix.sh

bench: deps
	sh test/bench/run.sh
