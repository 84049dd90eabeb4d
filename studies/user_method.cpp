#include "studies/user_method.hpp"

#include <nlohmann/json.hpp>

namespace geomint {

UserMethod::UserMethod(std::string name, std::string description,
                       UserMethodCoefficients coefficients)
    : name_(std::move(name)),
      description_(std::move(description)),
      coefficients_(std::move(coefficients)) {
  std::visit(
      [&](auto& m) {
        m.declaration.name = name_;
        m.declaration.description = description_;
      },
      coefficients_);
}

const Declaration& UserMethod::declaration() const {
  return std::visit([](const auto& m) -> const Declaration& { return m.declaration; },
                    coefficients_);
}

bool UserMethod::declares_momentum() const {
  const auto* command = std::get_if<ExternalCommand>(&coefficients_);
  return declaration().symplectic || (command && command->momentum);
}

namespace {

nlohmann::json tableau_json(const ButcherTableau<kDynamicStages>& tab) {
  return {{"a", tab.a}, {"b", tab.b}, {"c", tab.c}};
}

nlohmann::json point_json(const CfPoint<kDynamicStages>& p) {
  return {{"base", p.base}, {"exponentials", p.alpha}};
}

}  // namespace

nlohmann::json UserMethod::as_json() const {
  const Declaration& d = declaration();
  nlohmann::json j = {{"kind", to_string(kind())},
                      {"order", d.order},
                      {"symmetric", d.symmetric},
                      {"stays_on_manifold", d.stays_on_manifold}};
  std::visit(
      [&]<class Method>(const Method& m) {
        if constexpr (std::is_same_v<Method, RuntimeRkMethod>) {
          j["tableau"] = tableau_json(m.tableau);
          j["reproject"] = m.reproject;
        } else if constexpr (std::is_same_v<Method, RuntimeRkmkMethod>) {
          j["tableau"] = tableau_json(m.tableau);
        } else if constexpr (std::is_same_v<Method, ExternalCommand>) {
          j["command"] = m.command;
          j["directory"] = m.directory.string();
          j["timeout"] = m.timeout_s;
          j["adaptive"] = d.adaptive;
          j["symplectic"] = d.symplectic;
          j["momentum"] = m.momentum;
          j["files"] = m.file_digests;
        } else {
          auto stages = nlohmann::json::array();
          for (const auto& p : m.scheme.stages) stages.push_back(point_json(p));
          j["stages"] = stages;
          j["update"] = point_json(m.scheme.update);
        }
      },
      coefficients_);
  return j;
}

}  // namespace geomint
