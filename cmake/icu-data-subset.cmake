# Makes an ICU data library of only the items the engine opens, as assembly that
# defines ICU's entry point (icudtNN_dat), for the CLI, which links ICU's code
# from its static archive (cli/CMakeLists.txt says why).
#
#   cmake -DICUDATA_ARCHIVE=.../libicudata.a -DITEMS="nfkc.nrm" -DICUPKG=... \
#         -DGENCCODE=... -DAR=... -DOBJCOPY=... -DOUTPUT=.../icudata-subset.S \
#         -P icu-data-subset.cmake
#
# The steps are ICU's own way to trim its data (icupkg and genccode, from
# icu-devtools, which libicu-dev depends on); Debian ships the data only inside
# libicudata, whose one object's .rodata is the whole package (icudtNNl.dat).
foreach(var ICUDATA_ARCHIVE ITEMS ICUPKG GENCCODE AR OBJCOPY OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "icu-data-subset.cmake: ${var} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGV} WORKING_DIRECTORY ${work} RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "icu-data-subset.cmake: `${ARGV}` failed (${status}):\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

get_filename_component(output_dir ${OUTPUT} DIRECTORY)
set(work ${output_dir}/icu-data-subset)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work}/items ${work}/subset)

# The archive's one member, icudtNNl_dat.o, names the package: icudtNNl (NN the
# major version, l little-endian), which is also the prefix of every item's name.
run(${AR} t ${ICUDATA_ARCHIVE})
string(STRIP "${out}" member)
if(NOT member MATCHES "^(icudt[0-9]+)([lb])_dat\\.o$")
  message(FATAL_ERROR "icu-data-subset.cmake: ${ICUDATA_ARCHIVE} holds `${member}`, not one icudtNNl_dat.o")
endif()
set(entry_point ${CMAKE_MATCH_1})
set(package ${CMAKE_MATCH_1}${CMAKE_MATCH_2})

run(${AR} x ${ICUDATA_ARCHIVE} ${member})
run(${OBJCOPY} -O binary --only-section=.rodata ${member} ${package}.dat)
string(REPLACE " " ";" items "${ITEMS}")
foreach(item ${items})
  run(${ICUPKG} -x ${item} -d items ${package}.dat)
endforeach()
string(REPLACE ";" "\n" list "${items}")
file(WRITE ${work}/items.txt "${list}\n")
run(${ICUPKG} -s items -a items.txt new subset/${package}.dat)
run(${GENCCODE} -q -e ${entry_point} -a gcc -d subset subset/${package}.dat)
file(COPY_FILE ${work}/subset/${package}_dat.S ${OUTPUT} ONLY_IF_DIFFERENT)
