// The portfolio area (issue 28 item 4, server-contract "Portfolio"): the
// rollup of every organization a person belongs to, read through the
// accounts, projects and bugs areas' ports. No tables of its own.
#pragma once

#include "areas/bugs/module.h"
#include "areas/portfolio/app/portfolio.h"
#include "modules/module.h"

namespace service::modules {

class PortfolioModule final : public Module {
 public:
  explicit PortfolioModule(BugsModule& bugs) : bugs_(bugs) {}
  std::string_view name() const override { return "portfolio"; }
  Status Open(Platform& platform) override;
  void RegisterRoutes(api::Pipeline& pipeline) override;

 private:
  BugsModule& bugs_;
  app::portfolio::PortfolioDeps deps_;
};

}  // namespace service::modules
