# Debian packages, made by CPack's DEB generator from the install components
# (scripts/package runs it on a Release build configured for /usr):
#   abstracts         the CLI, its man page, completions, the bundled corpus, user docs
#   libabstracts0     the shared library (libabstracts.so.0), for programs built on it
#   libabstracts-dev  headers, the CMake package, the pkg-config file, docs/library.md
#   python3-abstracts the Python package `abstracts` (python/), for Debian's python3
# as Debian splits a tool with a library (notmuch, libnotmuch5, libnotmuch-dev). The
# CLI links the library's objects, not the shared library, so `abstracts` does not
# need libabstracts0. Dependencies on other packages come from dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME abstracts)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# CPack's own default summary, which CPackDeb does not put before a package's
# description: so the first line of each description below is that package's summary.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
# No maintainer address exists yet; dpkg wants the field.
set(CPACK_PACKAGE_CONTACT "abstracts developers <abstracts@invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL cli lib dev)
if(ABSTRACTS_BUILD_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A `shlibs` file for libabstracts0, so packages built on it depend on it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME abstracts)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION text)
string(CONCAT CPACK_DEBIAN_CLI_DESCRIPTION
    "${PROJECT_DESCRIPTION}: the command-line tool\n"
    "A command-line tool with grep manners that indexes abstracts of scientific\n"
    "papers (text, BibTeX, RIS, CSL-JSON, PubMed XML, arXiv, Semantic Scholar,\n"
    "OpenAlex) into a Xapian index and searches them with BM25, phrases, fields,\n"
    "wildcards, spelling correction and learned acronyms, printing snippets with\n"
    "path:line locations. The first search builds a default index from a bundled\n"
    "corpus.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libabstracts${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
string(CONCAT CPACK_DEBIAN_LIB_DESCRIPTION
    "${PROJECT_DESCRIPTION} (shared library)\n"
    "The search engine of abstracts as a C++ library: index files of abstracts,\n"
    "search them with the query language and ranking of the abstracts tool, fetch\n"
    "abstracts by id and find similar ones.")
# dpkg's ldconfig trigger, as Debian's library packages have it, rather than the
# postinst and postrm that CPack would write to call ldconfig (which it does not
# write when the package brings its own).
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/triggers ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
    ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libabstracts-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libabstracts${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION})")
string(CONCAT CPACK_DEBIAN_DEV_DESCRIPTION
    "${PROJECT_DESCRIPTION} (development files)\n"
    "Headers, the CMake package (find_package(abstracts)) and the pkg-config file\n"
    "(abstracts) for building C++20 programs on libabstracts.")

# The module for the python3 it was built with (its file name says the version:
# _abstracts.cpython-311-...so), in /usr/lib/python3/dist-packages as Debian's own.
# libabstracts0 exactly (as the -dev package): the module is built on this
# version's API; dpkg-shlibdeps adds libstdc++ and libc. Its byte-compiled files
# are made and removed by the package's scripts, as dh_python3 writes them.
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-abstracts)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
math(EXPR python_next_minor "${Python3_VERSION_MINOR} + 1")
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
    "libabstracts${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION}), python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}~), python3 (<< ${Python3_VERSION_MAJOR}.${python_next_minor})")
# The tool brings the bundled corpus that Index.default() indexes first.
set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS "abstracts (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "python3-pandas, python3-matplotlib")
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/python3-abstracts/postinst
    ${CMAKE_CURRENT_LIST_DIR}/debian/python3-abstracts/prerm)
# libabstracts.so.0 is this build's own: dpkg-shlibdeps finds it here, and the
# dependency on it is the one above.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR})
string(CONCAT CPACK_DEBIAN_PYTHON_DESCRIPTION
    "${PROJECT_DESCRIPTION} (Python 3)\n"
    "The search engine of abstracts for Python: `import abstracts` to index files\n"
    "of abstracts, search them with the query language and ranking of the\n"
    "abstracts tool, facet, export citations and read hits as pandas tables.")

include(CPack)
