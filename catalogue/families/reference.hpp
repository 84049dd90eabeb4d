#pragma once
// Catalogue entries of the reference integrators (see catalogue/catalogue_entry.hpp for what
// an entry is): SUNDIALS CVODE (BDF with a dense or a matrix-free GMRES linear solver, Adams)
// and ARKODE (explicit RK), and Boost.Odeint's Dormand-Prince (controlled and dense output),
// Fehlberg 7(8) and Bulirsch-Stoer, each but BDF-GMRES also as a reprojection variant
// (`_proj`). All need only the AmbientOde view.

#include "catalogue/catalogue_entry.hpp"
#include "reference/arkode.hpp"
#include "reference/cvode.hpp"
#include "reference/odeint.hpp"

namespace geomint {

template <const Declaration& D, template <AmbientOde> class Integrator>
struct AmbientReferenceEntry {
  static constexpr const Declaration& declaration = D;
  using View = view::AmbientOde;
  template <class M>
  using type = Integrator<M>;
};

namespace catalogue {
template <AmbientOde M>
using CvodeBdf = Cvode<M>;
template <AmbientOde M>
using ArkodeErkPlain = ArkodeErk<M>;
template <AmbientOde M>
using OdeintDopri5DensePlain = OdeintDopri5Dense<M>;
}  // namespace catalogue

using ReferenceEntries = CatalogueList<
    AmbientReferenceEntry<kCvodeBdfDeclaration, catalogue::CvodeBdf>,
    AmbientReferenceEntry<kCvodeBdfProjectedDeclaration, CvodeBdfProjected>,
    AmbientReferenceEntry<kCvodeBdfGmresDeclaration, CvodeBdfGmres>,
    AmbientReferenceEntry<kCvodeAdamsDeclaration, CvodeAdams>,
    AmbientReferenceEntry<kCvodeAdamsProjectedDeclaration, CvodeAdamsProjected>,
    AmbientReferenceEntry<kArkodeErkDeclaration, catalogue::ArkodeErkPlain>,
    AmbientReferenceEntry<kArkodeErkProjectedDeclaration, ArkodeErkProjected>,
    AmbientReferenceEntry<kOdeintDopri5Declaration, OdeintDopri5>,
    AmbientReferenceEntry<kOdeintDopri5ProjectedDeclaration, OdeintDopri5Projected>,
    AmbientReferenceEntry<kOdeintDopri5DenseDeclaration, catalogue::OdeintDopri5DensePlain>,
    AmbientReferenceEntry<kOdeintDopri5DenseProjectedDeclaration, OdeintDopri5DenseProjected>,
    AmbientReferenceEntry<kOdeintRkf78Declaration, OdeintRkf78>,
    AmbientReferenceEntry<kOdeintRkf78ProjectedDeclaration, OdeintRkf78Projected>,
    AmbientReferenceEntry<kOdeintBulirschStoerDeclaration, OdeintBulirschStoer>,
    AmbientReferenceEntry<kOdeintBulirschStoerProjectedDeclaration, OdeintBulirschStoerProjected>>;

}  // namespace geomint
