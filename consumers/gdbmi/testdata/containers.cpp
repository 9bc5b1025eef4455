// containers.cpp: standard library containers for the pretty-printing
// tests (varobj_test.go).
#include <map>
#include <string>
#include <vector>

int main() {
  std::vector<int> v{1, 2, 3};
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  std::string s = "text";
  return v.size() + m.size() + s.size() == 9 ? 0 : 1; // line 11
}
