# Make a man page from a page of docs/: -DIN=docs/x.md -DOUT=ward.1 -DNAME=ward -DSECTION=1
# -DVERSION=0.1.0 -DMD2MAN=/usr/bin/go-md2man [-DSUMMARY="one line"].  The page's own first
# heading (# ...) gives way to the title block go-md2man reads, and to a NAME section made
# of SUMMARY when the page has none; links to other pages of docs/ become man page names.
file(READ "${IN}" text)
string(REGEX REPLACE "^# [^\n]*\n" "" text "${text}")
string(REPLACE "(policy.md)" "(ward-policy(5))" text "${text}")
string(REPLACE "docs/policy.md" "ward-policy(5)" text "${text}")
string(TOUPPER "${NAME}" upper)
set(head "% ${upper} ${SECTION} \"\" \"ward ${VERSION}\" \"ward manual\"\n\n")
if(DEFINED SUMMARY)
  string(APPEND head "## NAME\n${NAME} - ${SUMMARY}\n\n## DESCRIPTION\n")
endif()
file(WRITE "${OUT}.md" "${head}${text}")
execute_process(COMMAND "${MD2MAN}" -in "${OUT}.md" -out "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "go-md2man failed on ${IN}")
endif()
file(REMOVE "${OUT}.md")
