# The CMake package: find_package(BatchBLAS) finds
# $(libdir)/cmake/BatchBLAS/BatchBLASConfig.cmake (imported targets
# BatchBLAS::batchblas and BatchBLAS::batchblas_mkl) and its version file.
# Written here by sed, at make time so that they follow the directories make
# installs into; no CMake is needed to build.  The config file finds
# everything relative to its own place: the prefix is as many ".." above
# $(libdir)/cmake/BatchBLAS as $(libdir) is deep below $(prefix) (two more
# for lib/x86_64-linux-gnu).  A $(libdir) or $(includedir) outside $(prefix)
# is written as an absolute path.  tests/cmake_check.sh tests it.
cmakeconfigdir = $(libdir)/cmake/BatchBLAS
nodist_cmakeconfig_DATA = cmake/BatchBLASConfig.cmake cmake/BatchBLASConfigVersion.cmake
EXTRA_DIST += cmake/BatchBLASConfig.cmake.in cmake/BatchBLASConfigVersion.cmake.in
CLEANFILES += $(nodist_cmakeconfig_DATA)

cmake/BatchBLASConfig.cmake: $(srcdir)/cmake/BatchBLASConfig.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && rm -f $@ $@.tmp && \
	prefix='$(prefix)'; libdir='$(libdir)'; includedir='$(includedir)'; \
	while :; do case $$prefix in */) prefix=$${prefix%/};; *) break;; esac; done; \
	while :; do case $$libdir in */) libdir=$${libdir%/};; *) break;; esac; done; \
	cm_prefix=$$prefix; cm_include=$$includedir; \
	case $$libdir in "$$prefix"/*) \
	  rest=$${libdir#"$$prefix"/}; up=../..; \
	  while test -n "$$rest"; do \
	    case $$rest in */*) part=$${rest%%/*}; rest=$${rest#*/};; *) part=$$rest; rest=;; esac; \
	    case $$part in ''|.) ;; *) up=$$up/..;; esac; \
	  done; \
	  cm_prefix='$${CMAKE_CURRENT_LIST_DIR}/'$$up; \
	  case $$includedir in "$$prefix"/*) \
	    inc=$${includedir#"$$prefix"/}; \
	    while :; do case $$inc in /*) inc=$${inc#/};; *) break;; esac; done; \
	    cm_include='$${_BatchBLAS_PREFIX}/'$$inc;; \
	  esac;; \
	esac; \
	sed -e 's|@BB_CMAKE_VERSION@|$(PACKAGE_VERSION)|g' \
	    -e "s|@BB_CMAKE_PREFIX@|$$cm_prefix|g" \
	    -e "s|@BB_CMAKE_INCLUDEDIR@|$$cm_include|g" \
	    $(srcdir)/cmake/BatchBLASConfig.cmake.in >$@.tmp && mv $@.tmp $@

cmake/BatchBLASConfigVersion.cmake: $(srcdir)/cmake/BatchBLASConfigVersion.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && rm -f $@ $@.tmp && \
	sed -e 's|@BB_CMAKE_VERSION@|$(PACKAGE_VERSION)|g' \
	    $(srcdir)/cmake/BatchBLASConfigVersion.cmake.in >$@.tmp && mv $@.tmp $@

# What tests/cmake_check.sh needs from this build: the compiler and flags
# for the client project (a sanitizer build needs its flags there too), the
# prefix (the staged copy lies in $DESTDIR$(prefix)) and make.
tests/cmake_check.env: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests && rm -f $@ && { \
	echo "BB_MAKE='$(MAKE)'"; echo "BB_PREFIX='$(prefix)'"; echo "BB_CC='$(CC)'"; \
	echo "BB_CFLAGS='$(CFLAGS)'"; echo "BB_LDFLAGS='$(LDFLAGS)'"; } >$@
check_DATA = tests/cmake_check.env
CLEANFILES += tests/cmake_check.env
EXTRA_DIST += tests/cmake_check.sh tests/cmake/CMakeLists.txt tests/cmake/main.c tests/cmake/shim.c \
	tests/cmake/version.cmake
